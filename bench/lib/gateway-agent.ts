// The agent side of bench/gateway.mjs, in its own process: one ModemProxy (the agent's proxy core) that listens on
// its own ports (the direct path) and also serves the same customer port through a gateway link (link/gateway-link.ts),
// so both paths end in the same proxy. Signs its own tickets with the bench's key (the server does it in production).
// Prints one JSON line when linked; "stats" on stdin gets one JSON line back (memory after a full collection when
// node runs with --expose-gc, as bench/soak.mjs starts it); exits when stdin ends.
import { createPrivateKey } from 'node:crypto';
import { createInterface } from 'node:readline';
import { SignJWT } from 'jose';
import { GatewayLink } from '../../apps/agent/src/link/gateway-link.js';
import { ModemProxy } from '../../apps/agent/src/proxy/modem-proxy.js';
import { kernelRelayOrNull } from '../../apps/agent/src/relay/kernel-relay.js';
import { createTargetPolicy } from '../../apps/agent/src/proxy/target-policy.js';
import { TrafficMeter } from '../../apps/agent/src/proxy/traffic-meter.js';
import type { Logger } from '../../apps/agent/src/proxy/types.js';

interface Options {
  listenHost: string; httpPort: number; socksPort: number; egress: string; login: string; password: string;
  gateway: { linkUrl: string; id: string; privateKeyPem: string; httpPort: number; socksPort: number; poolSize?: number };
  maxConnectionsPerPort: number;
  /** Where to build the kernel relay for the agent's tunnels (as the agent relays them), or null: in JavaScript. */
  kernelRelay?: string | null;
}
const options = JSON.parse(process.argv[2] ?? '{}') as Options;
let logged = 0;
const toStderr = (level: string) => (fields: object, message: string) => {
  if (logged++ < 20) process.stderr.write(`${JSON.stringify({ level, message, ...fields })}\n`);
};
const log: Logger = { info() {}, warn: toStderr('warn'), error: toStderr('error') };

const relay = options.kernelRelay
  ? await kernelRelayOrNull(options.kernelRelay, (reason) => process.stderr.write(`agent: kernel relay not available, relaying in JavaScript: ${reason}\n`))
  : null;
const proxy = new ModemProxy({
  kernelRelay: relay,
  imei: 'bench-modem', listenHost: options.listenHost, httpPort: options.httpPort, socksPort: options.socksPort,
  egress: options.egress, policy: createTargetPolicy({ allowLoopback: true, allowPrivate: false, deniedCidrs: [] }),
  meter: new TrafficMeter(), log, limits: { maxConnectionsPerPort: options.maxConnectionsPerPort },
});
await proxy.start();
const expiresAt = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
proxy.setPorts([{ id: 'bench-port', login: options.login, password: options.password, whitelist: [], state: 'active', expiresAt }]);

const key = createPrivateKey(options.gateway.privateKeyPem);
const gw = options.gateway;
const link = new GatewayLink({
  linkUrl: gw.linkUrl, log, ...(gw.poolSize === undefined ? {} : { poolSize: gw.poolSize }),
  ticket: (linkKey) => new SignJWT({
    epoch: 1, ports: [{ port: gw.httpPort, kind: 'http' }, { port: gw.socksPort, kind: 'socks' }],
    cnf: { jwk: { kty: 'OKP', crv: 'Ed25519', x: linkKey } },
  })
    .setProtectedHeader({ alg: 'EdDSA' }).setSubject('bench-host').setAudience(gw.id).setIssuedAt().setExpirationTime('2h').sign(key),
  route: (port) => port === gw.httpPort ? (s) => proxy.acceptStream(s, 'http') : port === gw.socksPort ? (s) => proxy.acceptStream(s, 'socks') : null,
  onState: (state) => {
    if (state.state === 'up') process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid })}\n`);
    else log.warn(state, 'link');
  },
});
link.start();

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() !== 'stats') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write(`${JSON.stringify({ memory: process.memoryUsage(), connections: proxy.connectionCount })}\n`);
});
lines.on('close', () => { link.stop(); void proxy.close().then(() => process.exit(0)); });
