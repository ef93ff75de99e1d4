// `npm run gateway`: the public gateway for hosts behind NAT (docs/deploy-gateway.md). Builds the agent package once
// when there is no build, then runs the gateway with this environment (GATEWAY_ID, GATEWAY_TRUST_KEY, …).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const entry = `${root}apps/agent/dist/gateway.js`;
if (!existsSync(entry)) {
  const result = spawnSync('npm', ['run', 'build', '-w', '@cellport/agent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const child = spawn(process.execPath, ['--enable-source-maps', entry], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
