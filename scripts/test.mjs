// `npm test`: every check, in the order that fails fastest. Each step's output streams as it runs; the steps of one
// group run side by side (typecheck and lint use a core each: 2 cores finish both in the time of the longer).
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const groups = [
  [['typecheck', ['run', 'typecheck']], ['lint', ['run', 'lint']]],
  [['unit and server tests', ['run', 'test:unit']]],
  [['build', ['run', 'build']]],
  // Every bench's quick mode (bench/run.mjs --quick): a change that breaks a bench fails here. Needs the build.
  [['bench quick modes', ['run', 'bench', '--', '--quick']]],
  [['browser tests', ['run', 'test:e2e']]],
];

function run([name, args]) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  return new Promise((resolve) => {
    spawn('npm', args, { cwd: root, stdio: 'inherit' }).on('close', (code) => {
      console.log(`${code === 0 ? '✔' : '✖'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      resolve(code ?? 1);
    });
  });
}

for (const group of groups) {
  const codes = await Promise.all(group.map(run));
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) process.exit(failed);
}
