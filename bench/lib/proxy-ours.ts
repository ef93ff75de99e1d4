// Our proxy core for bench/proxy.mjs, alone in its own process so its CPU time and RSS can be read apart from the
// load generator's. bench/proxy.mjs bundles it with esbuild (as the agent's own build does) and runs the bundle;
// by hand: node --import tsx bench/lib/proxy-ours.ts '<json options>'.
// One ModemProxy (the agent's proxy core, as the host agent builds it) with two customer ports: one reached with a
// login and password, one by a whitelisted client address (SOCKS no-authentication). Prints one JSON line when it
// listens; each line "stats" (or "stats gc", after a full collection) on stdin gets one JSON line back
// (process.memoryUsage, open connections), "heapsnapshot <file>" writes a heap snapshot; closes and exits when stdin
// ends. With "metrics" in the options it also serves the agent's /metrics (its registry over this proxy's counters
// and meter, as the host agent's, on a port of its own), so bench/proxy.mjs can measure the proxy with metrics on
// against one with them off (BENCH_METRICS=1).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the agent's ambient types for prom-client's per-metric modules (runtime/process-metrics.ts); a declaration file cannot be imported
/// <reference path="../../apps/agent/src/runtime/prom-client-metrics.d.ts" />
import { createInterface } from 'node:readline';
import { writeHeapSnapshot } from 'node:v8';
import { ModemProxy } from '../../apps/agent/src/proxy/modem-proxy.js';
import { kernelRelayOrNull } from '../../apps/agent/src/relay/kernel-relay.js';
import { createTargetPolicy } from '../../apps/agent/src/proxy/target-policy.js';
import { TrafficMeter } from '../../apps/agent/src/proxy/traffic-meter.js';
import type { Logger, ProxyLimits } from '../../apps/agent/src/proxy/types.js';
import { AgentMetrics } from '../../apps/agent/src/runtime/agent-metrics.js';
import { startMetricsServer } from '../../apps/agent/src/runtime/metrics-server.js';

interface Options {
  listenHost: string;
  httpPort: number;
  socksPort: number;
  egress: string;
  login: string;
  password: string;
  /** Client address whose connections belong to the second port without credentials. */
  whitelisted: string;
  limits?: Partial<ProxyLimits>;
  /** Serve /metrics on this port with this token (BENCH_METRICS=1). */
  metrics?: { host: string; port: number; token: string; processMetrics: boolean };
  /**
   * Relay tunnels in the kernel as the agent does (ModemProxy's kernelRelay), built into this folder; absent: in
   * JavaScript (BENCH_KERNEL_RELAY=0). Falls back to JavaScript, saying so, when it cannot be built.
   */
  kernelRelayDir?: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options;

// Warnings and errors go to stderr (the first few), so a failing run says why without slowing a healthy one.
let logged = 0;
const toStderr = (level: string) => (fields: object, message: string) => {
  if (logged++ < 20) process.stderr.write(`${JSON.stringify({ level, message, ...fields })}\n`);
};
const log: Logger = { info() {}, warn: toStderr('warn'), error: toStderr('error') };

const meter = new TrafficMeter();
const relay = options.kernelRelayDir
  ? await kernelRelayOrNull(options.kernelRelayDir, (reason) => process.stderr.write(`kernel relay not available, relaying in JavaScript: ${reason}\n`))
  : null;
const proxy = new ModemProxy({
  kernelRelay: relay,
  imei: 'bench-modem',
  listenHost: options.listenHost,
  httpPort: options.httpPort,
  socksPort: options.socksPort,
  egress: options.egress,
  policy: createTargetPolicy({ allowLoopback: true, allowPrivate: false, deniedCidrs: [] }),
  meter,
  log,
  limits: options.limits,
});
await proxy.start();
const expiresAt = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
proxy.setPorts([
  { id: 'bench-port-login', login: options.login, password: options.password, whitelist: [], state: 'active', expiresAt },
  { id: 'bench-port-whitelist', login: 'bench-whitelisted', password: 'unused-password', whitelist: [options.whitelisted], state: 'active', expiresAt },
]);
if (options.metrics) {
  const metrics = new AgentMetrics({ processMetrics: options.metrics.processMetrics });
  // What a host agent gives its metrics, for this one proxy (no server link, no modem driver).
  metrics.watch({
    name: 'bench', counters: proxy.counters, serverConnected: false, desiredState: null, gatewayLinkUp: null,
    countOpen: (into) => proxy.countOpen(into),
    trafficTotals: () => meter.totalsNow(),
    snapshot: () => [{ imei: 'bench-modem', state: 'online', extIp: options.egress, connections: proxy.connectionCount }],
  });
  const { host, port, token } = options.metrics;
  await startMetricsServer({ host, port, token, registry: metrics.registry });
}
process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid, limits: proxy.limits })}\n`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const [command, arg] = line.trim().split(' ');
  if (command === 'heapsnapshot' && arg) {
    process.stdout.write(`${JSON.stringify({ snapshot: writeHeapSnapshot(arg) })}\n`);
  } else if (command === 'stats') {
    // "stats gc": after a full collection (the process runs with --expose-gc), so the heap figure is what is live.
    const gc = (globalThis as { gc?: () => void }).gc;
    if (arg === 'gc' && gc) gc();
    const traffic = meter.collect();
    let bytes = 0;
    for (const s of traffic) bytes += Number(s.bytesIn + s.bytesOut);
    process.stdout.write(`${JSON.stringify({ memory: process.memoryUsage(), connections: proxy.connectionCount, meteredBytes: bytes })}\n`);
  }
});
lines.on('close', () => {
  void proxy.close().then(() => process.exit(0));
});
