// `npm test`: every check, in the order that fails fastest. Each step's output streams as it runs.
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const steps = [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
  ['unit and server tests', ['run', 'test:unit']],
  ['build', ['run', 'build']],
  // Every bench's quick mode (bench/run.mjs --quick): a change that breaks a bench fails here. Needs the build.
  ['bench quick modes', ['run', 'bench', '--', '--quick']],
  ['browser tests', ['run', 'test:e2e']],
];
for (const [name, args] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  console.log(`${result.status === 0 ? '✔' : '✖'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}
