// The host agent's proxy core (apps/agent/src/proxy/modem-proxy.ts) against a direct connection and against the
// Debian peers, all in one run on this machine's loopback addresses (issue 11, item 8):
//   1. bulk: 1 GiB down and up through CONNECT and through SOCKS5, against a direct connection (target ≥ 0.9×),
//      plus one download through each peer for comparison; our CPU seconds per GB moved;
//   2. 1 KB requests per second through the HTTP proxy (absolute-URI forwarding, keep-alive, wrk): ours against
//      tinyproxy and squid (targets ≥ 1.5× tinyproxy, ≥ 1× squid), wrk straight to the origin as the ceiling;
//   3. new tunnels per second (connect, handshake and auth, CONNECT to an echo, 16 bytes there and back, close):
//      HTTP CONNECT against tinyproxy and squid, SOCKS5 against dante (target ≥ 1×) and microsocks, the same Node
//      client for every peer, and that client straight to the echo as its own ceiling; and the Node floor
//      (bench/lib/proxy-node-floor.mjs: the least a Node CONNECT proxy does), so a run shows how much of ours is
//      our own code and how much is Node's per-connection work;
//   4. 10,000 idle tunnels held open through ours (half CONNECT, half SOCKS5): the proxy's RSS (target < 200 MB).
//
//   node bench/proxy.mjs                     (the full run, about 3 minutes; installs the peers when missing)
//   BENCH_QUICK=1 node bench/proxy.mjs       (quick mode: 16 MiB, 1 s per step, 200 idle tunnels; installs nothing,
//                                             fails when a peer is missing or when ours answers wrongly)
//   BENCH_ONLY=rps,tunnels node bench/proxy.mjs          (some of bulk, rps, tunnels, idle)
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' BENCH_ONLY=tunnels node bench/proxy.mjs   (profile ours)
//   BENCH_ONLY=idle BENCH_HEAP_SNAPSHOT=/tmp/idle.heapsnapshot node bench/proxy.mjs   (what 10,000 tunnels keep alive)
//   BENCH_PROXY_DIR=/tmp/proxy-copy node bench/proxy.mjs   (measure a changed copy of apps/agent/src/proxy instead)
//   BENCH_BASELINE_DIR=/tmp/proxy-old node bench/proxy.mjs (A/B in one run: also a "before" ours built from that copy,
//                                             e.g. `git archive <old commit> apps/agent/src/proxy | tar -x -C /tmp/x`,
//                                             interleaved with ours in every step; "ours ×" on its rows is new ÷ old)
//   BENCH_METRICS=1 node bench/proxy.mjs     (also a second "ours" with the agent's /metrics on, scraped every second,
//                                             interleaved with the first in every step; BENCH_PEERS=0 skips the peers)
//   Other knobs: BENCH_SECONDS (per step, 4), BENCH_ROUNDS (interleaved rounds, 2; medians are reported),
//   BENCH_BULK_BYTES, BENCH_BULK_REPEATS (3), BENCH_CONCURRENCY (tunnel loops, 32), BENCH_LOAD_PROCS (tunnel
//   client processes, 1), BENCH_WRK_CONNECTIONS (32), BENCH_IDLE (10000), BENCH_JSON (write all figures there).
//
// Every process has its own event loop or its own binary: the origin (bench/lib/proxy-origin.mjs: a 1 KB HTTP
// server, a bulk source and sink, an echo that closes after one echo, an echo that holds), ours
// (bench/lib/proxy-ours.ts bundled by esbuild as the agent is, one ModemProxy with a login port and a whitelisted port, egress 127.0.9.9),
// each peer (minimal config in a temp dir, egress bound to 127.0.9.9 too, stopped at the end) and the load
// generator (bench/lib/proxy-load.mjs, or wrk). CPU seconds and RSS are read from /proc.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  cpuSeconds, ensureInstalled, fdLimit, firstLine, freePort, openFds, rssMb, runToEnd, spawnWithLimit, startPeer, stop,
  versions, waitForPort,
} from './lib/proxy-procs.mjs';
import { QUICK, fault, knob as env } from './lib/quick.mjs';

const BULK_BYTES = env('BENCH_BULK_BYTES', 1 << 30, 16 << 20);
const BULK_REPEATS = env('BENCH_BULK_REPEATS', 3, 1);
const SECONDS = env('BENCH_SECONDS', 4, 1);
const ROUNDS = env('BENCH_ROUNDS', 2, 1);
const CONCURRENCY = env('BENCH_CONCURRENCY', 32, 16);
const LOAD_PROCS = env('BENCH_LOAD_PROCS', 1, 1);
const WRK_CONNECTIONS = env('BENCH_WRK_CONNECTIONS', 32, 16);
const IDLE = env('BENCH_IDLE', 10_000, 200);
/** How long the idle tunnels are held before RSS is read, and again later (the RSS the step reports settles). */
const HOLD_MS = QUICK ? 200 : 2000;
const HOLD_LATER_MS = QUICK ? 200 : 3000;
const ONLY = new Set((process.env.BENCH_ONLY ?? 'bulk,rps,tunnels,idle').split(',').map((s) => s.trim()));
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** A copy of apps/agent/src/proxy to measure instead of the tree's (an A/B of a proxy change). */
const PROXY_DIR = process.env.BENCH_PROXY_DIR;
/** A copy of apps/agent/src/proxy (an older commit's) run as a second ours beside the first: an A/B in one run. */
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR;
/** Ours relays tunnels in the kernel as the agent does; BENCH_KERNEL_RELAY=0 relays them in JavaScript (an A/B). */
const KERNEL_RELAY = process.env.BENCH_KERNEL_RELAY !== '0';
/** A second ours with /metrics served and scraped (every SCRAPE_MS), measured beside the first (issue 17). */
const METRICS = process.env.BENCH_METRICS === '1';
const PEERS = process.env.BENCH_PEERS !== '0';
const SCRAPE_MS = Number(process.env.BENCH_SCRAPE_MS ?? 1000); // 0: never scraped
/** BENCH_METRICS_PROCESS=0: without prom-client's process metrics (CPU, memory, event loop, GC observers). */
const METRICS_PROCESS = process.env.BENCH_METRICS_PROCESS !== '0';
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
/** The scrapes of the metrics-on proxy so far. */
const scrapes = { ok: 0, failed: 0, bytes: 0, ms: 0, timer: null };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LIB = fileURLToPath(new URL('./lib/', import.meta.url));
const EGRESS = '127.0.9.9';
const WHITELISTED = '127.0.0.2';
const USER = 'bench';
const PASS = 'bench-secret-1';
const HOST = '127.0.0.1';

const children = new Set();
const results = { command: commandLine(), date: new Date().toISOString(), machine: machine(), peers: {}, bulk: [], rps: [], tunnels: [], idle: null, targets: [] };
let dir = null;

process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));

try {
  await main();
} finally {
  await cleanup();
}

async function main() {
  console.log(`$ ${results.command}`);
  console.log(`${results.date} · ${results.machine.summary}`);
  console.log(`load average at start: ${loadavg()}`);
  const installed = ensureInstalled(undefined, { install: !QUICK });
  if (installed.length) console.log(`installed: ${installed.join(', ')}`);
  results.peers = versions();
  console.log(`peers (Debian packages): ${Object.entries(results.peers).map(([k, v]) => `${k} ${v}`).join(', ')}`);

  dir = mkdtempSync(join(os.tmpdir(), 'cellport-proxy-bench-'));
  chmodSync(dir, 0o777); // the peers drop to nobody/proxy and write their logs here

  const origin = await startOrigin();
  const ours = await startOurs();
  const oursMetrics = METRICS ? await startOurs({ metrics: true }) : null;
  const baseline = BASELINE_DIR ? await startOurs({ from: BASELINE_DIR }) : null;
  if (oursMetrics && SCRAPE_MS > 0) scrapeEverySecond(oursMetrics);
  const needPeers = PEERS && (ONLY.has('bulk') || ONLY.has('rps') || ONLY.has('tunnels'));
  const peers = {};
  if (needPeers) {
    for (const name of ['tinyproxy', 'squid', 'dante', 'microsocks']) {
      const peer = await startPeer(name, { dir, port: await freePort(), egress: EGRESS, user: USER, pass: PASS, track: (c) => children.add(c) });
      peers[name] = peer;
    }
  }
  const nodeFloor = ONLY.has('tunnels') ? await startNodeFloor() : null;
  const echo = { host: HOST, port: origin.ports.echo };
  const auth = { user: USER, pass: PASS };
  const via = {
    direct: { kind: 'direct' },
    oursConnect: { kind: 'connect', host: HOST, port: ours.httpPort, ...auth },
    oursSocks: { kind: 'socks', host: HOST, port: ours.socksPort, ...auth },
    oursSocksWhitelisted: { kind: 'socks', host: HOST, port: ours.socksPort, localAddress: WHITELISTED },
    oursMetricsConnect: oursMetrics && { kind: 'connect', host: HOST, port: oursMetrics.httpPort, ...auth },
    oursMetricsSocks: oursMetrics && { kind: 'socks', host: HOST, port: oursMetrics.socksPort, ...auth },
    baselineConnect: baseline && { kind: 'connect', host: HOST, port: baseline.httpPort, ...auth },
    baselineSocks: baseline && { kind: 'socks', host: HOST, port: baseline.socksPort, ...auth },
    tinyproxy: peers.tinyproxy && { kind: 'connect', host: HOST, port: peers.tinyproxy.port, ...auth },
    squid: peers.squid && { kind: 'connect', host: HOST, port: peers.squid.port, ...auth },
    dante: peers.dante && { kind: 'socks', host: HOST, port: peers.dante.port },
    microsocks: peers.microsocks && { kind: 'socks', host: HOST, port: peers.microsocks.port, ...auth },
    nodeFloor: nodeFloor && { kind: 'connect', host: HOST, port: nodeFloor.port, ...auth },
  };
  const pidOf = { ours: ours.pid, oursMetrics: oursMetrics?.pid, baseline: baseline?.pid, tinyproxy: peers.tinyproxy?.child.pid, squid: peers.squid?.child.pid, dante: peers.dante?.child.pid, microsocks: peers.microsocks?.child.pid, nodeFloor: nodeFloor?.child.pid };

  if (ONLY.has('bulk')) await bulk(origin, via, pidOf);
  if (ONLY.has('rps')) await rps(origin, ours, peers, pidOf, oursMetrics, baseline);
  if (ONLY.has('tunnels')) await tunnels(echo, via, pidOf);
  if (ONLY.has('idle')) {
    // A fresh process, so the figure does not depend on which steps ran before (a 1 GiB transfer leaves RSS behind).
    let fresh = ours;
    if (ONLY.size > 1) {
      results.oursRssAfterOtherSteps = rssMb(ours.pid);
      console.log(`\nours RSS after the steps above: ${fmt(results.oursRssAfterOtherSteps)} MB; the idle step starts a fresh process`);
      ours.child.stdin.end();
      await new Promise((r) => (ours.child.exitCode !== null ? r() : ours.child.once('exit', r)));
      children.delete(ours.child);
      fresh = await startOurs();
      via.oursConnect = { ...via.oursConnect, port: fresh.httpPort };
      via.oursSocks = { ...via.oursSocks, port: fresh.socksPort };
    }
    await idle(origin, fresh, via);
  }

  console.log(`\nload average at end: ${loadavg()}`);
  if (METRICS) metricsSummary();
  summary();
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(results, null, 2)}\n`);
}

// ---- 1. bulk ------------------------------------------------------------------------------------------------------

async function bulk(origin, via, pidOf) {
  section(`1. Bulk: ${mib(BULK_BYTES)} per transfer, one tunnel, ${BULK_REPEATS} repeat(s) interleaved, medians`);
  const paths = [
    { label: 'direct (baseline)', via: via.direct },
    { label: 'ours, HTTP CONNECT', via: via.oursConnect, proxy: 'ours' },
    { label: 'ours, SOCKS5', via: via.oursSocks, proxy: 'ours' },
    ...(METRICS ? [
      { label: 'ours + /metrics, HTTP CONNECT', via: via.oursMetricsConnect, proxy: 'oursMetrics' },
      { label: 'ours + /metrics, SOCKS5', via: via.oursMetricsSocks, proxy: 'oursMetrics' },
    ] : []),
    ...(BASELINE_DIR ? [
      { label: 'before, HTTP CONNECT', via: via.baselineConnect, proxy: 'baseline' },
      { label: 'before, SOCKS5', via: via.baselineSocks, proxy: 'baseline' },
    ] : []),
  ];
  const runs = [];
  for (let r = 0; r < BULK_REPEATS; r++) {
    for (const direction of ['down', 'up']) {
      for (const path of paths) runs.push(await bulkRun(path, direction, origin, pidOf));
    }
  }
  // One download through each peer, for comparison (no target).
  const peerPaths = [
    { label: 'tinyproxy, CONNECT', via: via.tinyproxy, proxy: 'tinyproxy' },
    { label: 'squid, CONNECT', via: via.squid, proxy: 'squid' },
    { label: 'dante, SOCKS5 (no auth)', via: via.dante, proxy: 'dante' },
    { label: 'microsocks, SOCKS5', via: via.microsocks, proxy: 'microsocks' },
  ].filter((p) => p.via);
  for (const path of peerPaths) runs.push(await bulkRun(path, 'down', origin, pidOf));

  const rows = [];
  for (const direction of ['down', 'up']) {
    const base = median(runs.filter((x) => x.label === paths[0].label && x.direction === direction).map((x) => x.mbPerSecond));
    for (const path of [...paths, ...peerPaths]) {
      const mine = runs.filter((x) => x.label === path.label && x.direction === direction);
      if (mine.length === 0) continue;
      const mbs = median(mine.map((x) => x.mbPerSecond));
      const gb = sum(mine.map((x) => x.bytes)) / 1e9;
      const cpu = path.proxy ? sum(mine.map((x) => x.cpu)) / gb : null;
      const row = { direction, label: path.label, mbPerSecond: mbs, ratio: mbs / base, cpuSecondsPerGb: cpu, all: mine.map((x) => round(x.mbPerSecond)) };
      rows.push(row);
      if (path.proxy === 'ours') {
        results.targets.push(target(`bulk ${direction}, ${path.label} ≥ 0.9× direct`, row.ratio, 0.9));
      }
    }
  }
  results.bulk = rows;
  table(['direction', 'path', 'MB/s (median)', '× direct', 'proxy CPU s/GB', 'each run MB/s'],
    rows.map((x) => [x.direction, x.label, fmt(x.mbPerSecond), ratio(x.ratio), x.cpuSecondsPerGb === null ? '' : x.cpuSecondsPerGb.toFixed(2), x.all.join(', ')]));
  const ours = rows.filter((x) => x.label.startsWith('ours, '));
  const cpuAll = sum(runs.filter((x) => x.proxy === 'ours').map((x) => x.cpu)) / (sum(runs.filter((x) => x.proxy === 'ours').map((x) => x.bytes)) / 1e9);
  results.oursCpuSecondsPerGb = cpuAll;
  console.log(`ours: ${cpuAll.toFixed(2)} CPU seconds per GB moved over all its bulk runs (${ours.map((x) => `${x.direction} ${x.label.slice(6)} ${x.cpuSecondsPerGb.toFixed(2)}`).join(', ')})`);
  if (BASELINE_DIR) {
    const old = runs.filter((x) => x.proxy === 'baseline');
    results.baselineCpuSecondsPerGb = sum(old.map((x) => x.cpu)) / (sum(old.map((x) => x.bytes)) / 1e9);
    console.log(`before: ${results.baselineCpuSecondsPerGb.toFixed(2)} CPU seconds per GB moved (ours ÷ before ${(cpuAll / results.baselineCpuSecondsPerGb).toFixed(2)})`);
  }
}

async function bulkRun(path, direction, origin, pidOf) {
  const target = { host: HOST, port: direction === 'down' ? origin.ports.source : origin.ports.sink };
  const pid = path.proxy ? pidOf[path.proxy] : null;
  const cpu0 = pid ? cpuSeconds(pid, true) : 0;
  const [res] = await load({ mode: 'bulk', via: path.via, target, direction, bytes: BULK_BYTES });
  const cpu = pid ? cpuSeconds(pid, true) - cpu0 : 0;
  progress(`bulk ${direction} ${path.label}: ${fmt(res.mbPerSecond)} MB/s${pid ? `, proxy CPU ${cpu.toFixed(2)} s` : ''}`);
  return { label: path.label, proxy: path.proxy, direction, bytes: res.bytes, mbPerSecond: res.mbPerSecond, cpu };
}

// ---- 2. requests per second ---------------------------------------------------------------------------------------

async function rps(origin, ours, peers, pidOf, oursMetrics, baseline) {
  section(`2. 1 KB requests/s through the HTTP proxy: wrk -t1 -c${WRK_CONNECTIONS} -d${SECONDS}s, keep-alive, absolute URI, ${ROUNDS} round(s) interleaved, medians`);
  const url = `http://${HOST}:${origin.ports.http}/1k`;
  const basic = `Basic ${Buffer.from(`${USER}:${PASS}`).toString('base64')}`;
  const cases = [
    { label: 'wrk straight to the origin (ceiling)', port: origin.ports.http, path: '/1k' },
    { label: 'ours', port: ours.httpPort, path: url, auth: basic, proxy: 'ours' },
    oursMetrics && { label: 'ours + /metrics', port: oursMetrics.httpPort, path: url, auth: basic, proxy: 'oursMetrics' },
    baseline && { label: 'before', port: baseline.httpPort, path: url, auth: basic, proxy: 'baseline' },
    peers.tinyproxy && { label: 'tinyproxy', port: peers.tinyproxy.port, path: url, auth: basic, proxy: 'tinyproxy' },
    peers.squid && { label: 'squid', port: peers.squid.port, path: url, auth: basic, proxy: 'squid' },
  ].filter(Boolean);
  const runs = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of cases) {
      const script = join(dir, `wrk-${c.label.split(' ')[0]}${c.proxy === 'oursMetrics' ? '-metrics' : ''}.lua`); // 'before' is its own first word
      writeFileSync(script, [
        `wrk.path = "${c.path}"`,
        `wrk.headers["Host"] = "${HOST}:${origin.ports.http}"`,
        c.auth ? `wrk.headers["Proxy-Authorization"] = "${c.auth}"` : '',
        '',
      ].join('\n'));
      const pid = c.proxy ? pidOf[c.proxy] : null;
      const cpu0 = pid ? cpuSeconds(pid, true) : 0;
      const out = await run('wrk', ['-t1', `-c${WRK_CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-s', script, `http://${HOST}:${c.port}/`]);
      const cpu = pid ? cpuSeconds(pid, true) - cpu0 : 0;
      const w = parseWrk(out);
      progress(`rps ${c.label}: ${fmt(w.rps)} req/s, p50 ${w.p50} p99 ${w.p99}, non-2xx ${w.non2xx}, socket errors ${w.socketErrors}${w.socketErrors ? ` (${w.socketErrorKinds})` : ''}`);
      runs.push({ label: c.label, proxy: c.proxy, ...w, cpuUsPerRequest: pid && w.requests ? (cpu / w.requests) * 1e6 : null });
      // Quick mode: every path answered, and ours (and the origin) only with 2xx and no socket error.
      if (QUICK && !(w.requests > 0)) fault(`rps ${c.label}: no request answered`);
      if (QUICK && (!c.proxy || c.proxy.startsWith('ours')) && (w.non2xx || w.socketErrors)) fault(`rps ${c.label}: ${w.non2xx} non-2xx, ${w.socketErrors} socket errors`);
    }
  }
  const rows = cases.map((c) => {
    const mine = runs.filter((x) => x.label === c.label);
    return {
      label: c.label, proxy: c.proxy, rps: median(mine.map((x) => x.rps)), all: mine.map((x) => Math.round(x.rps)),
      p50: mine.at(-1).p50, p99: mine.at(-1).p99, non2xx: sum(mine.map((x) => x.non2xx)), socketErrors: sum(mine.map((x) => x.socketErrors)),
      cpuUsPerRequest: c.proxy ? median(mine.map((x) => x.cpuUsPerRequest)) : null,
    };
  });
  const oursRow = rows.find((x) => x.proxy === 'ours');
  const ceiling = rows[0];
  table(['through', 'req/s (median)', 'ours ×', '× ceiling', 'p50 / p99 (last round)', 'non-2xx', 'wrk socket errors', 'proxy CPU µs/req', 'each round'],
    rows.map((x) => [x.label, fmt(x.rps), x.proxy && x.proxy !== 'ours' ? ratio(oursRow.rps / x.rps) : '', ratio(x.rps / ceiling.rps), `${x.p50} / ${x.p99}`, x.non2xx, x.socketErrors, x.cpuUsPerRequest === null ? '' : Math.round(x.cpuUsPerRequest), x.all.join(', ')]));
  results.rps = rows;
  const tiny = rows.find((x) => x.proxy === 'tinyproxy');
  const squid = rows.find((x) => x.proxy === 'squid');
  if (tiny) results.targets.push(target('1 KB req/s: ours ≥ 1.5× tinyproxy', oursRow.rps / tiny.rps, 1.5));
  if (squid) results.targets.push(target('1 KB req/s: ours ≥ 1× squid', oursRow.rps / squid.rps, 1));
  if (tiny?.socketErrors) {
    console.log('note: tinyproxy closes the client connection after each answer (no keep-alive to the client); wrk reconnects and counts each close as a read error');
  }
}

function parseWrk(out) {
  const num = (re) => Number(re.exec(out)?.[1] ?? 0);
  const lat = (p) => /Latency Distribution[\s\S]*?/.test(out) ? (new RegExp(`\\s${p}%\\s+(\\S+)`).exec(out)?.[1] ?? '?') : '?';
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    requests: num(/(\d+) requests in/),
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
    socketErrors: socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    socketErrorKinds: socket ? `connect ${socket[1]}, read ${socket[2]}, write ${socket[3]}, timeout ${socket[4]}` : '',
    p50: lat(50),
    p99: lat(99),
  };
}

// ---- 3. new tunnels per second ------------------------------------------------------------------------------------

async function tunnels(echo, via, pidOf) {
  section(`3. New tunnels/s: ${LOAD_PROCS} Node client process(es), ${CONCURRENCY} loops, ${SECONDS}s each, ${ROUNDS} round(s) interleaved, medians; each tunnel: connect, handshake/auth, CONNECT to the echo, 16 bytes there and back, close`);
  const cases = [
    { group: 'ceiling', label: 'client straight to the echo (generator ceiling)', via: via.direct },
    { group: 'http', label: 'ours, HTTP CONNECT', via: via.oursConnect, proxy: 'ours' },
    { group: 'http', label: 'tinyproxy, HTTP CONNECT', via: via.tinyproxy, proxy: 'tinyproxy' },
    { group: 'http', label: 'squid, HTTP CONNECT', via: via.squid, proxy: 'squid' },
    { group: 'http', label: 'Node floor, HTTP CONNECT (bench/lib/proxy-node-floor.mjs)', via: via.nodeFloor, proxy: 'nodeFloor' },
    { group: 'socks', label: 'ours, SOCKS5 user/password', via: via.oursSocks, proxy: 'ours' },
    { group: 'socks', label: 'ours, SOCKS5 whitelisted (no auth)', via: via.oursSocksWhitelisted, proxy: 'ours' },
    { group: 'http', label: 'ours + /metrics, HTTP CONNECT', via: via.oursMetricsConnect, proxy: 'oursMetrics' },
    { group: 'socks', label: 'ours + /metrics, SOCKS5 user/password', via: via.oursMetricsSocks, proxy: 'oursMetrics' },
    { group: 'http', label: 'before, HTTP CONNECT', via: via.baselineConnect, proxy: 'baseline' },
    { group: 'socks', label: 'before, SOCKS5 user/password', via: via.baselineSocks, proxy: 'baseline' },
    { group: 'socks', label: 'dante, SOCKS5 (no auth: see notes)', via: via.dante, proxy: 'dante' },
    { group: 'socks', label: 'microsocks, SOCKS5 user/password', via: via.microsocks, proxy: 'microsocks' },
  ].filter((c) => c.via);
  const runs = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of cases) {
      const pid = c.proxy ? pidOf[c.proxy] : null;
      const cpu0 = pid ? cpuSeconds(pid, true) : 0;
      const parts = await load({ mode: 'tunnels', via: c.via, target: echo, seconds: SECONDS, concurrency: Math.ceil(CONCURRENCY / LOAD_PROCS) }, LOAD_PROCS);
      const cpu = pid ? cpuSeconds(pid, true) - cpu0 : 0;
      const ok = sum(parts.map((p) => p.ok));
      const res = {
        label: c.label, proxy: c.proxy, group: c.group, perSecond: sum(parts.map((p) => p.perSecond)), ok,
        errors: sum(parts.map((p) => p.errors)), errorKinds: mergeCounts(parts.map((p) => p.errorKinds)),
        p50: Math.max(...parts.map((p) => p.p50)), p99: Math.max(...parts.map((p) => p.p99)),
        cpuUsPerTunnel: pid && ok ? (cpu / ok) * 1e6 : null,
      };
      progress(`tunnels ${c.label}: ${fmt(res.perSecond)}/s, p50 ${res.p50.toFixed(1)} ms, p99 ${res.p99.toFixed(1)} ms, errors ${res.errors}${res.errors ? ` ${JSON.stringify(res.errorKinds)}` : ''}`);
      runs.push(res);
      if (QUICK && !(ok > 0)) fault(`tunnels ${c.label}: no tunnel completed`);
      if (QUICK && res.errors) fault(`tunnels ${c.label}: ${res.errors} errors ${JSON.stringify(res.errorKinds)}`);
    }
  }
  const rows = cases.map((c) => {
    const mine = runs.filter((x) => x.label === c.label);
    return {
      label: c.label, proxy: c.proxy, group: c.group, perSecond: median(mine.map((x) => x.perSecond)), all: mine.map((x) => Math.round(x.perSecond)),
      p50: median(mine.map((x) => x.p50)), p99: median(mine.map((x) => x.p99)), errors: sum(mine.map((x) => x.errors)),
      errorKinds: mergeCounts(mine.map((x) => x.errorKinds)), cpuUsPerTunnel: c.proxy ? median(mine.map((x) => x.cpuUsPerTunnel)) : null,
    };
  });
  const find = (label) => rows.find((x) => x.label === label);
  const oursHttp = find('ours, HTTP CONNECT');
  const oursSocks = find('ours, SOCKS5 user/password');
  const oursWl = find('ours, SOCKS5 whitelisted (no auth)');
  const ceiling = rows[0];
  const oursFor = (x) => (x.group === 'http' ? oursHttp : x.label.startsWith('dante') ? oursWl : oursSocks);
  table(['through', 'tunnels/s (median)', 'ours ×', '× ceiling', 'p50 / p99 ms', 'errors', 'proxy CPU µs/tunnel', 'each round'],
    rows.map((x) => [x.label, fmt(x.perSecond), x.proxy && x.proxy !== 'ours' ? `${ratio(oursFor(x).perSecond / x.perSecond)}${x.label.startsWith('dante') ? ' (whitelisted) / ' + ratio(oursSocks.perSecond / x.perSecond) + ' (user/pw)' : ''}` : '',
      ratio(x.perSecond / ceiling.perSecond), `${x.p50.toFixed(1)} / ${x.p99.toFixed(1)}`, x.errors ? `${x.errors} ${JSON.stringify(x.errorKinds)}` : 0,
      x.cpuUsPerTunnel === null ? '' : Math.round(x.cpuUsPerTunnel), x.all.join(', ')]));
  results.tunnels = rows;
  const tiny = rows.find((x) => x.proxy === 'tinyproxy');
  const squid = rows.find((x) => x.proxy === 'squid');
  const dante = rows.find((x) => x.proxy === 'dante');
  if (tiny) results.targets.push(target('CONNECT tunnels/s: ours ≥ 1.5× tinyproxy', oursHttp.perSecond / tiny.perSecond, 1.5));
  if (squid) results.targets.push(target('CONNECT tunnels/s: ours ≥ 1× squid', oursHttp.perSecond / squid.perSecond, 1));
  if (dante) {
    results.targets.push(target('SOCKS5 tunnels/s: ours (whitelisted, no auth, like dante here) ≥ 1× dante', oursWl.perSecond / dante.perSecond, 1));
    results.targets.push(target('SOCKS5 tunnels/s: ours (user/password) ≥ 1× dante (no auth)', oursSocks.perSecond / dante.perSecond, 1));
  }
  const slow = Math.max(...rows.filter((x) => x.proxy).map((x) => x.perSecond));
  if (slow > 0.7 * ceiling.perSecond) {
    console.log(`note: the fastest proxy reached ${ratio(slow / ceiling.perSecond)} of the client's own ceiling; ratios near the top are limited by the client (try BENCH_LOAD_PROCS=2)`);
  }
}

// ---- 4. idle tunnels ----------------------------------------------------------------------------------------------

async function idle(origin, ours, via) {
  const before = { rss: rssMb(ours.pid), fds: openFds(ours.pid) };
  // Each tunnel is two descriptors in ours. Where the open-files limit cannot be raised far enough (a container
  // without CAP_SYS_RESOURCE), hold as many as fit and extrapolate linearly to IDLE.
  const limit = fdLimit(ours.pid);
  const count = Math.min(IDLE, Math.floor((limit - before.fds - 64) / 2));
  section(`4. ${count.toLocaleString('en')} idle tunnels held open through ours (half HTTP CONNECT, half SOCKS5, to an echo that never closes)`);
  if (count < IDLE) console.log(`note: ours may open ${limit} files here (hard limit; raising it needs CAP_SYS_RESOURCE), so it holds ${count.toLocaleString('en')} tunnels and the RSS at ${IDLE.toLocaleString('en')} is extrapolated from them`);
  const stats0 = await ours.stats();
  const child = spawnWithLimit(process.execPath, [join(LIB, 'proxy-load.mjs'), JSON.stringify({
    mode: 'idle', vias: [via.oursConnect, via.oursSocks], target: { host: HOST, port: origin.ports.hold }, count, concurrency: 200,
  })], { cwd: ROOT });
  children.add(child);
  child.stderr.pipe(process.stderr);
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise((resolve, reject) => {
    lines.once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', (code) => reject(new Error(`idle client exited with ${code}`)));
  });
  const opened = await next();
  await sleep(HOLD_MS);
  const held = { rss: rssMb(ours.pid), fds: openFds(ours.pid), stats: await ours.stats() };
  await sleep(HOLD_LATER_MS);
  const later = { rss: rssMb(ours.pid), stats: await ours.stats() };
  // After a full collection: what the open tunnels keep alive (the RSS target is judged on `held`, untouched).
  const gced = { stats: await ours.stats('gc') };
  gced.rss = rssMb(ours.pid);
  if (process.env.BENCH_HEAP_SNAPSHOT) console.log(`heap snapshot: ${(await ours.command(`heapsnapshot ${process.env.BENCH_HEAP_SNAPSHOT}`)).snapshot}`);
  child.stdin.end();
  const closed = await next();
  await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  children.delete(child);
  // Wait for ours to close its side of every tunnel (at most 30 s).
  const t0 = performance.now();
  let after;
  for (;;) {
    after = { rss: rssMb(ours.pid), fds: openFds(ours.pid), stats: await ours.stats() };
    if ((after.stats.connections === 0 && after.fds <= before.fds + 5) || performance.now() - t0 > 30_000) break;
    await sleep(250);
  }
  const settleSeconds = (performance.now() - t0) / 1000;
  const mb = (bytes) => bytes / 2 ** 20;
  const row = {
    tunnels: opened.opened, errors: opened.errors, errorKinds: opened.errorKinds, openSeconds: opened.openSeconds,
    rssBefore: before.rss, rssHeld: held.rss, rssHeld5s: later.rss, rssAfterGc: gced.rss, rssAfter: after.rss,
    heapBefore: mb(stats0.memory.heapUsed), heapHeld: mb(held.stats.memory.heapUsed), heapAfterGc: mb(gced.stats.memory.heapUsed),
    connectionsHeld: held.stats.connections, fdsHeld: held.fds, closedEarly: closed.closedEarly,
    connectionsAfter: after.stats.connections, fdsBefore: before.fds, fdsAfter: after.fds, settleSeconds,
  };
  results.idle = row;
  table(['', 'before', `${row.tunnels.toLocaleString('en')} tunnels open`, 'same, after a full GC', `after they closed (${settleSeconds.toFixed(1)} s)`], [
    ['ours RSS MB', fmt(row.rssBefore), `${fmt(row.rssHeld)} (${fmt(row.rssHeld5s)} ${HOLD_LATER_MS / 1000} s later)`, fmt(row.rssAfterGc), fmt(row.rssAfter)],
    ['ours JS heap used MB', fmt(row.heapBefore), fmt(row.heapHeld), fmt(row.heapAfterGc), fmt(mb(after.stats.memory.heapUsed))],
    ['ours open connections', stats0.connections, row.connectionsHeld, gced.stats.connections, row.connectionsAfter],
    ['ours open fds', row.fdsBefore, row.fdsHeld, '', row.fdsAfter],
  ]);
  const perTunnel = (x) => ((x * 1024) / Math.max(1, row.tunnels)).toFixed(1);
  console.log(`opened in ${row.openSeconds.toFixed(1)} s, ${row.errors} errors${row.errors ? ` ${JSON.stringify(row.errorKinds)}` : ''}; ${row.closedEarly} closed while held; ` +
    `per tunnel: ${perTunnel(row.rssHeld - row.rssBefore)} KB RSS, ${perTunnel(row.heapAfterGc - row.heapBefore)} KB live JS heap`);
  // RSS at IDLE tunnels: measured, or extrapolated linearly from the tunnels that fit under the open-files limit.
  const rssAtIdle = row.tunnels >= IDLE ? row.rssHeld : row.rssBefore + ((row.rssHeld - row.rssBefore) * IDLE) / Math.max(1, row.tunnels);
  row.rssAtIdle = rssAtIdle;
  row.extrapolated = row.tunnels < IDLE;
  const how = row.extrapolated ? ` (extrapolated from ${row.tunnels.toLocaleString('en')}: ${fmt(row.rssHeld)} MB)` : '';
  results.targets.push({ ...target(`${IDLE.toLocaleString('en')} idle tunnels: ours RSS < 200 MB`, rssAtIdle, 200, 'below'), figure: `${fmt(rssAtIdle)} MB${how}` });
  if (row.errors > 0) console.log(`note: ${row.errors} tunnels failed to open; the RSS figure counts only the ${row.tunnels.toLocaleString('en')} that did`);
  if (QUICK && (row.errors || row.tunnels !== count || row.closedEarly)) fault(`idle: ${row.tunnels} of ${count} tunnels held, ${row.errors} errors, ${row.closedEarly} closed early`);
}

// ---- processes ----------------------------------------------------------------------------------------------------

async function startOrigin() {
  const child = spawnWithLimit(process.execPath, [join(LIB, 'proxy-origin.mjs'), String(BULK_BYTES)], { cwd: ROOT });
  children.add(child);
  child.stderr.pipe(process.stderr);
  const ports = await firstLine(child, 'origin');
  return { child, ports };
}

/** The reference row of the tunnels step: the least a Node CONNECT proxy does (bench/lib/proxy-node-floor.mjs). */
async function startNodeFloor() {
  const child = spawnWithLimit(process.execPath, [join(LIB, 'proxy-node-floor.mjs'), USER, PASS], { cwd: ROOT });
  children.add(child);
  child.stderr.pipe(process.stderr);
  const { port } = await firstLine(child, 'node floor');
  return { child, port };
}

async function startOurs({ metrics = false, from = PROXY_DIR } = {}) {
  const httpPort = await freePort();
  const socksPort = await freePort();
  const metricsPort = metrics ? await freePort() : 0;
  const options = {
    listenHost: HOST, httpPort, socksPort, egress: EGRESS, login: USER, password: PASS, whitelisted: WHITELISTED,
    ...(metrics ? { metrics: { host: HOST, port: metricsPort, token: METRICS_TOKEN, processMetrics: METRICS_PROCESS } } : {}),
    // The default is 200 concurrent connections per customer port; the idle step puts all its tunnels on one port.
    limits: { maxConnectionsPerPort: Math.max(IDLE, CONCURRENCY, WRK_CONNECTIONS) + 1000 },
    // Tunnels relayed in the kernel, as the agent relays them (BENCH_KERNEL_RELAY=0: in JavaScript, for an A/B).
    ...(KERNEL_RELAY && from === PROXY_DIR ? { kernelRelayDir: join(dir, 'kernel-relay') } : {}),
  };
  // Bundled by esbuild like the agent itself (apps/agent/build.mjs → dist/main.js), so no TypeScript loader sits in
  // the process being measured (tsx's loader thread alone adds tens of MB of RSS).
  const { build } = await import('esbuild');
  // With --cpu-prof-dir the bundle and its source map stay beside the profile (bench/lib/proxy-profile.mjs maps it).
  const profDir = NODE_ARGS.find((a) => a.startsWith('--cpu-prof-dir='))?.slice('--cpu-prof-dir='.length);
  if (profDir) mkdirSync(profDir, { recursive: true });
  const bundle = join(profDir ?? dir, metrics ? 'proxy-ours-metrics.mjs' : from === BASELINE_DIR && from ? 'proxy-baseline.mjs' : 'proxy-ours.mjs');
  await build({
    entryPoints: [join(LIB, 'proxy-ours.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    sourcemap: true, logLevel: 'warning', plugins: from ? [proxyFrom(from)] : [],
    // prom-client (the metrics) is CommonJS and requires Node's built-ins: give the ES module bundle a require.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  // The kernel relay's C source beside the bundle, where the agent's build puts it (host-build.ts looks there).
  copyFileSync(join(ROOT, 'apps/agent/src/relay/kernel-relay.c'), join(dirname(bundle), 'kernel-relay.c'));
  const child = spawnWithLimit(process.execPath, ['--expose-gc', ...NODE_ARGS, bundle, JSON.stringify(options)], { cwd: ROOT });
  children.add(child);
  child.stderr.pipe(process.stderr);
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise((resolve, reject) => {
    lines.once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', (code) => reject(new Error(`our proxy exited with ${code} before it was ready`)));
  });
  await waitForPort(httpPort);
  if (from) console.log(`${from === BASELINE_DIR ? 'before' : 'ours'}: apps/agent/src/proxy loaded from ${from}`);
  console.log(`${from && from === BASELINE_DIR ? 'before' : 'ours'}: pid ${child.pid}, limits ${JSON.stringify(ready.limits)}`);
  const command = (text) => {
    child.stdin.write(`${text}\n`);
    return new Promise((resolve) => lines.once('line', (l) => resolve(JSON.parse(l))));
  };
  const stats = (gc) => command(gc ? 'stats gc' : 'stats');
  return { child, pid: child.pid, httpPort, socksPort, metricsPort, stats, command };
}

/** Scrapes the metrics-on proxy as Prometheus would, only far more often (every SCRAPE_MS, 15 s is usual). */
function scrapeEverySecond(ours) {
  const url = `http://${HOST}:${ours.metricsPort}/metrics`;
  scrapes.timer = setInterval(() => {
    const started = performance.now();
    fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      .then(async (res) => {
        const text = await res.text();
        if (res.status !== 200 || !text.includes('cellport_agent_bytes_total')) throw new Error(`scrape answered ${res.status}`);
        scrapes.ok++;
        scrapes.bytes = text.length;
        scrapes.ms += performance.now() - started;
      })
      .catch(() => { scrapes.failed++; });
  }, SCRAPE_MS);
  scrapes.timer.unref();
}

/** Each step's figure for ours with metrics off and on, side by side (BENCH_METRICS=1). */
function metricsSummary() {
  clearInterval(scrapes.timer);
  section(`Metrics on against off: the same proxy, /metrics served${METRICS_PROCESS ? '' : ' (no process metrics)'} and scraped every ${SCRAPE_MS / 1000} s (${scrapes.ok} scrapes of ${fmt(scrapes.bytes / 1024)} KB, ${scrapes.ok ? (scrapes.ms / scrapes.ok).toFixed(1) : '?'} ms each, ${scrapes.failed} failed)`);
  const pairs = [];
  for (const row of results.bulk.filter((x) => x.label.startsWith('ours, '))) {
    const on = results.bulk.find((x) => x.direction === row.direction && x.label === row.label.replace('ours, ', 'ours + /metrics, '));
    if (on) pairs.push({ step: `bulk ${row.direction} ${row.label.slice(6)}, MB/s`, off: row.mbPerSecond, on: on.mbPerSecond, cpuOff: row.cpuSecondsPerGb, cpuOn: on.cpuSecondsPerGb, cpuUnit: 's/GB' });
  }
  const rpsOff = results.rps.find((x) => x.proxy === 'ours');
  const rpsOn = results.rps.find((x) => x.proxy === 'oursMetrics');
  if (rpsOff && rpsOn) pairs.push({ step: '1 KB req/s', off: rpsOff.rps, on: rpsOn.rps, cpuOff: rpsOff.cpuUsPerRequest, cpuOn: rpsOn.cpuUsPerRequest, cpuUnit: 'µs/req' });
  for (const [off, on] of [['ours, HTTP CONNECT', 'ours + /metrics, HTTP CONNECT'], ['ours, SOCKS5 user/password', 'ours + /metrics, SOCKS5 user/password']]) {
    const a = results.tunnels.find((x) => x.label === off);
    const b = results.tunnels.find((x) => x.label === on);
    if (a && b) pairs.push({ step: `tunnels/s ${off.slice(6)}`, off: a.perSecond, on: b.perSecond, cpuOff: a.cpuUsPerTunnel, cpuOn: b.cpuUsPerTunnel, cpuUnit: 'µs/tunnel' });
  }
  table(['step', 'metrics off', 'metrics on', 'on × off', 'proxy CPU off / on'],
    pairs.map((x) => [x.step, fmt(x.off), fmt(x.on), ratio(x.on / x.off), x.cpuOff == null ? '' : `${x.cpuOff.toFixed(2)} / ${x.cpuOn.toFixed(2)} ${x.cpuUnit}`]));
  results.metrics = { scrapeMs: SCRAPE_MS, scrapes: { ok: scrapes.ok, failed: scrapes.failed, bytes: scrapes.bytes }, pairs };
}

/**
 * An esbuild plugin that loads apps/agent/src/proxy/<file> from `altDir` instead (same file names), so a changed copy
 * of the proxy can be measured against the tree's in the same sitting without touching the tree.
 */
function proxyFrom(altDir) {
  const proxyDir = join(ROOT, 'apps/agent/src/proxy/');
  return {
    name: 'proxy-from',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(proxyDir)) return undefined;
        return { contents: readFileSync(join(altDir, args.path.slice(proxyDir.length)), 'utf8'), loader: 'ts', resolveDir: proxyDir };
      });
    },
  };
}

/** Runs one load job in `procs` processes at once; their result lines. */
async function load(job, procs = 1) {
  return Promise.all(Array.from({ length: procs }, async () => {
    const out = await run(process.execPath, [join(LIB, 'proxy-load.mjs'), JSON.stringify(job)]);
    return JSON.parse(out.trim().split('\n').at(-1));
  }));
}

/** Runs a command to its end (bench/lib/proxy-procs.mjs), tracked for cleanup. */
function run(command, args) {
  return runToEnd(command, args, { cwd: ROOT, children });
}

async function cleanup() {
  const all = [...children];
  children.clear();
  // Close stdin first so ours and the origin exit on their own (and a --cpu-prof profile is written).
  for (const child of all) child.stdin?.end();
  await Promise.all(all.map(async (child) => {
    if (child.exitCode === null && child.signalCode === null) {
      await Promise.race([new Promise((r) => child.once('exit', r)), sleep(3000)]);
    }
    await stop(child);
  }));
  if (dir) {
    rmSync(dir, { recursive: true, force: true });
    dir = null;
  }
}

// ---- reporting ----------------------------------------------------------------------------------------------------

function summary() {
  section('Targets (issue 11, item 8)');
  table(['target', 'figure', 'met'], results.targets.map((t) => [t.name, t.figure, t.met ? 'yes' : '**no**']));
}

function target(name, value, threshold, kind = 'at least') {
  const met = kind === 'below' ? value < threshold : value >= threshold;
  return { name, value, threshold, met, figure: kind === 'below' ? fmt(value) : ratio(value) };
}

function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? '?';
  const info = {
    nproc: os.availableParallelism(), cpu: model, kernel: os.release(), memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version,
  };
  return { ...info, summary: `${info.nproc} cores ${info.cpu}, ${info.memoryGb} GB, Linux ${info.kernel}, Node ${info.node.slice(1)}` };
}

function commandLine() {
  const vars = Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_')).map(([k, v]) => `${k}=${/\s/.test(v) ? `'${v}'` : v}`);
  return [...vars, 'node', 'bench/proxy.mjs'].join(' ');
}

function loadavg() {
  return os.loadavg().map((x) => x.toFixed(2)).join(', ');
}

function section(title) {
  console.log(`\n## ${title} (load average ${loadavg()})`);
}

function progress(text) {
  if (process.env.BENCH_VERBOSE !== '0') console.log(`  · ${text}`);
}

function table(head, rows) {
  console.log(`| ${head.join(' | ')} |`);
  console.log(`|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

function median(xs) {
  const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function sum(xs) {
  return xs.reduce((a, b) => a + b, 0);
}

function mergeCounts(list) {
  const out = {};
  for (const counts of list) for (const [k, v] of Object.entries(counts ?? {})) out[k] = (out[k] ?? 0) + v;
  return out;
}

function round(x) {
  return Math.round(x);
}

function fmt(x) {
  return x >= 100 ? Math.round(x).toLocaleString('en') : x.toFixed(1);
}

function ratio(x) {
  return `${x.toFixed(2)}×`;
}

function mib(bytes) {
  return bytes >= 2 ** 30 ? `${bytes / 2 ** 30} GiB` : `${bytes / 2 ** 20} MiB`;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
