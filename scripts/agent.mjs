// `npm run agent`: the proxy host agent on a modem host (apps/agent/README.md), run with this environment
// (CELLPORT_SERVER_URL, CELLPORT_HOST_KEY, AGENT_DATA_DIR, …). `npm run gateway` runs the gateway from the same build
// (`node scripts/agent.mjs gateway`; docs/deploy-gateway.md). Builds the agent package once when there is no build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { superviseChild } from './supervise.mjs';

const root = new URL('..', import.meta.url).pathname;
// `node scripts/agent.mjs fingerprint-echo [--port …]` (npm run fingerprint-echo) runs the fingerprint echo (issue 30).
const command = process.argv[2];
const entry = `${root}apps/agent/dist/${command === 'gateway' ? 'gateway' : command === 'fingerprint-echo' ? 'fingerprint-echo' : 'main'}.js`;
if (!existsSync(entry)) {
  const result = spawnSync('npm', ['run', 'build', '-w', '@cellport/agent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
superviseChild(['--enable-source-maps', entry, ...(command === 'fingerprint-echo' ? process.argv.slice(3) : [])]);
