// `npm run agent`: the proxy host agent on a modem host (apps/agent/README.md). Builds it once when there is no
// build, then runs it with this environment (CELLPORT_SERVER_URL, CELLPORT_HOST_KEY, AGENT_DATA_DIR, …).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const entry = `${root}apps/agent/dist/main.js`;
if (!existsSync(entry)) {
  const result = spawnSync('npm', ['run', 'build', '-w', '@cellport/agent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const child = spawn(process.execPath, ['--enable-source-maps', entry], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
