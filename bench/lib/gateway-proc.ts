// The gateway of bench/gateway.mjs in its own process (apps/agent/src/gateway/gateway.ts, as `npm run gateway` runs
// it). Prints one JSON line when its link listener is up; "stats" on stdin gets one JSON line back (memory, after a
// full collection when node runs with --expose-gc, as bench/soak.mjs starts it); exits when stdin ends.
import { createInterface } from 'node:readline';
import { Gateway } from '../../apps/agent/src/gateway/gateway.js';
import { trustKeyFrom } from '../../apps/agent/src/gateway/link-ticket.js';
import { kernelRelay } from '../../apps/agent/src/relay/kernel-relay.js';

const options = JSON.parse(process.argv[2] ?? '{}') as {
  id: string; trustKey: string; linkPort: number; listenHost: string; offerPoolHello?: boolean;
  /** Where to build the kernel relay (decision 050), or null to relay in JavaScript. */
  kernelRelay?: string | null;
};
const gateway = new Gateway({
  kernelRelay: options.kernelRelay ? await kernelRelay(options.kernelRelay) : null,
  id: options.id, trustKey: trustKeyFrom(options.trustKey), linkHost: '127.0.0.1', linkPort: options.linkPort,
  listenHost: options.listenHost, offerPoolHello: options.offerPoolHello, log: { info() {}, warn() {}, error: (f, m) => process.stderr.write(`${m} ${JSON.stringify(f)}\n`) },
});
await gateway.start();
process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid, linkPort: gateway.linkPort })}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() !== 'stats') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write(`${JSON.stringify({ memory: process.memoryUsage(), paths: gateway.stats().paths })}\n`);
});
lines.on('close', () => { void gateway.close().then(() => process.exit(0)); });
