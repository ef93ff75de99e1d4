// `npm start`: builds once when there is no build, then runs the server on its embedded defaults (stopping it:
// supervise.mjs). `npm run worker` (`start.mjs worker`) runs a worker: CELLPORT_ROLE=worker (decision 043).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { superviseChild } from './supervise.mjs';

const root = new URL('..', import.meta.url).pathname;
// The child inherits this environment.
if (process.argv[2] === 'worker') process.env.CELLPORT_ROLE = 'worker';
const built = existsSync(`${root}apps/server/dist/main.js`) && existsSync(`${root}apps/web/dist/index.html`)
  && existsSync(`${root}apps/agent/dist/main.js`);
if (!built) {
  console.log('No build yet: building the web app and the server (once)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
superviseChild(['--enable-source-maps', `${root}apps/server/dist/main.js`]);
