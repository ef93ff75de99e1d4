// The gateway (issue 18, item 5) against the direct path, in one run on this machine's loopback addresses:
//   1. bulk: BENCH_BULK_BYTES down and up through HTTP CONNECT, direct to the agent's proxy and through the gateway
//      (target: gateway ≥ 0.8× direct), with the CPU seconds of the agent and the gateway;
//   2. 1 KB requests per second through the HTTP proxy (wrk, keep-alive, absolute URI): direct against the gateway;
//   3. BENCH_STREAMS (5,000) tunnels held open at once through the gateway, all on one link: RSS of the gateway and of
//      the agent, against the agent holding as many direct tunnels;
//   4. SOCKS5 UDP: datagrams per second echoed through one association (64 in flight, 512 bytes), direct against the
//      gateway (bench/lib/udp-load.mjs).
// Processes: the origin (bench/lib/proxy-origin.mjs), the agent side (bench/lib/gateway-agent.ts: one ModemProxy that
// listens itself and is also linked to the gateway), the gateway (bench/lib/gateway-proc.ts), each bundled by esbuild
// as the agent's build does, and the load generators (bench/lib/proxy-load.mjs, wrk).
//
//   node bench/gateway.mjs            (about 2 minutes)
//   BENCH_QUICK=1 node bench/gateway.mjs   (quick mode: 16 MiB, 1 s per step, 200 streams; installs nothing, fails when
//                                           wrk is missing or a path answers wrongly)
//   knobs: BENCH_BULK_BYTES, BENCH_ROUNDS (3), BENCH_SECONDS (4), BENCH_WRK_CONNECTIONS (32), BENCH_STREAMS (5000),
//          BENCH_ONLY=bulk,rps,streams,udp
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, ensureInstalled, firstLine, freePort, rssMb, runToEnd, spawnWithLimit, waitForPort } from './lib/proxy-procs.mjs';
import { QUICK, fault, knob as env } from './lib/quick.mjs';

const BULK_BYTES = env('BENCH_BULK_BYTES', 512 << 20, 16 << 20);
const ROUNDS = env('BENCH_ROUNDS', 3, 1);
const SECONDS = env('BENCH_SECONDS', 4, 1);
const WRK_CONNECTIONS = env('BENCH_WRK_CONNECTIONS', 32, 16);
const STREAMS = env('BENCH_STREAMS', 5000, 200);
/** How long the streams are held before RSS is read, and the pause before the next path (RSS settles). */
const HOLD_MS = QUICK ? 200 : 2000;
const PAUSE_MS = QUICK ? 0 : 3000;
const ONLY = new Set((process.env.BENCH_ONLY ?? 'bulk,rps,streams,udp').split(',').map((s) => s.trim()));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LIB = fileURLToPath(new URL('./lib/', import.meta.url));
const HOST = '127.0.0.1';
const GATEWAY_HOST = '127.0.0.5';
const EGRESS = '127.0.9.9';
const USER = 'bench';
const PASS = 'bench-secret-1';

const children = new Set();
const dir = mkdtempSync(join(os.tmpdir(), 'cellport-gateway-bench-'));
const results = { date: new Date().toISOString(), load: [], bulk: [], rps: [], streams: null, udp: null };
process.on('SIGINT', () => { cleanup(); process.exit(130); });

try {
  await main();
} finally {
  cleanup();
}

async function main() {
  console.log(`$ node bench/gateway.mjs${QUICK ? ' (BENCH_QUICK=1)' : ''}`);
  console.log(`${results.date} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim()} · Node ${process.version} · load average ${loadavg()}`);
  if (ONLY.has('rps')) ensureInstalled(['wrk'], { install: !QUICK });

  const origin = await startOrigin();
  const { agent, gateway, ports } = await startPair(Math.max(STREAMS, WRK_CONNECTIONS) + 1000);
  const direct = { kind: 'connect', host: HOST, port: ports.direct.http, user: USER, pass: PASS };
  const viaGateway = { kind: 'connect', host: GATEWAY_HOST, port: ports.gateway.http, user: USER, pass: PASS };
  const pids = [agent.pid, gateway.pid];

  if (ONLY.has('bulk')) {
    section(`1. Bulk: ${BULK_BYTES / 2 ** 20} MiB per transfer, one tunnel, ${ROUNDS} round(s) interleaved, medians`);
    const runs = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const direction of ['down', 'up']) {
        for (const [label, via] of [['direct', direct], ['gateway', viaGateway]]) {
          const cpu0 = pids.map((p) => cpuSeconds(p));
          const res = await load({ mode: 'bulk', via, target: { host: HOST, port: direction === 'down' ? origin.source : origin.sink }, direction, bytes: BULK_BYTES });
          const cpu = pids.map((p, i) => cpuSeconds(p) - cpu0[i]);
          console.log(`  · ${direction} ${label}: ${res.mbPerSecond.toFixed(0)} MB/s, CPU agent ${cpu[0].toFixed(2)} s, gateway ${cpu[1].toFixed(2)} s`);
          runs.push({ direction, label, ...res, cpuAgent: cpu[0], cpuGateway: cpu[1] });
        }
      }
    }
    for (const direction of ['down', 'up']) {
      const m = (label) => median(runs.filter((x) => x.direction === direction && x.label === label).map((x) => x.mbPerSecond));
      const row = { direction, direct: m('direct'), gateway: m('gateway') };
      row.ratio = row.gateway / row.direct;
      const g = runs.filter((x) => x.direction === direction && x.label === 'gateway');
      row.gatewayCpuPerGb = sum(g.map((x) => x.cpuGateway)) / (sum(g.map((x) => x.bytes)) / 1e9);
      row.agentCpuPerGb = sum(g.map((x) => x.cpuAgent)) / (sum(g.map((x) => x.bytes)) / 1e9);
      results.bulk.push(row);
    }
    table(['direction', 'direct MB/s', 'gateway MB/s', 'gateway × direct (target ≥ 0.8)', 'gateway CPU s/GB', 'agent CPU s/GB (via gateway)'],
      results.bulk.map((r) => [r.direction, r.direct.toFixed(0), r.gateway.toFixed(0), `${r.ratio.toFixed(2)}× ${r.ratio >= 0.8 ? 'met' : '**missed**'}`, r.gatewayCpuPerGb.toFixed(2), r.agentCpuPerGb.toFixed(2)]));
  }

  if (ONLY.has('rps')) {
    section(`2. 1 KB requests/s through the HTTP proxy: wrk -t1 -c${WRK_CONNECTIONS} -d${SECONDS}s, keep-alive, ${ROUNDS} round(s) interleaved, medians`);
    const url = `http://${HOST}:${origin.http}/1k`;
    const script = join(dir, 'wrk.lua');
    writeFileSync(script, `wrk.path = "${url}"\nwrk.headers["Host"] = "${HOST}:${origin.http}"\nwrk.headers["Proxy-Authorization"] = "Basic ${Buffer.from(`${USER}:${PASS}`).toString('base64')}"\n`);
    const runs = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const [label, host, port] of [['direct', HOST, ports.direct.http], ['gateway', GATEWAY_HOST, ports.gateway.http]]) {
        const out = await run('wrk', ['-t1', `-c${WRK_CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-s', script, `http://${host}:${port}/`]);
        const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
        const p99 = /\s99%\s+(\S+)/.exec(out)?.[1] ?? '?';
        const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
        console.log(`  · ${label}: ${rps.toFixed(0)} req/s, p99 ${p99}, non-2xx ${non2xx}`);
        if (QUICK && (!(rps > 0) || non2xx)) fault(`rps ${label}: ${rps} req/s, ${non2xx} non-2xx`);
        runs.push({ label, rps, p99, non2xx });
      }
    }
    const m = (label) => median(runs.filter((x) => x.label === label).map((x) => x.rps));
    results.rps = { direct: m('direct'), gateway: m('gateway'), non2xx: sum(runs.map((x) => x.non2xx)) };
    table(['direct req/s', 'gateway req/s', 'gateway × direct', 'non-2xx'],
      [[results.rps.direct.toFixed(0), results.rps.gateway.toFixed(0), `${(results.rps.gateway / results.rps.direct).toFixed(2)}×`, results.rps.non2xx]]);
  }

  if (ONLY.has('streams')) {
    section(`3. ${STREAMS.toLocaleString('en')} tunnels held open at once (to an echo that never closes)`);
    const rows = [];
    for (const [label, via] of [['gateway (all on one link)', viaGateway], ['direct', direct]]) {
      const before = { agent: rssMb(agent.pid), gateway: rssMb(gateway.pid) };
      const child = spawnWithLimit(process.execPath, [join(LIB, 'proxy-load.mjs'), JSON.stringify({
        mode: 'idle', vias: [via], target: { host: HOST, port: origin.hold }, count: STREAMS, concurrency: 200,
      })], { cwd: ROOT });
      children.add(child);
      child.stderr.pipe(process.stderr);
      const lines = createInterface({ input: child.stdout });
      const next = () => new Promise((resolve) => lines.once('line', (l) => resolve(JSON.parse(l))));
      const opened = await next();
      await sleep(HOLD_MS);
      const held = { agent: rssMb(agent.pid), gateway: rssMb(gateway.pid) };
      child.stdin.end();
      await next();
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      children.delete(child);
      console.log(`  · ${label}: ${opened.opened} open (${opened.errors} errors) in ${opened.openSeconds.toFixed(1)} s; RSS agent ${before.agent.toFixed(0)} → ${held.agent.toFixed(0)} MB, gateway ${before.gateway.toFixed(0)} → ${held.gateway.toFixed(0)} MB`);
      rows.push({ label, opened: opened.opened, errors: opened.errors, openSeconds: opened.openSeconds, before, held });
      if (QUICK && (opened.errors || opened.opened !== STREAMS)) fault(`streams ${label}: ${opened.opened} of ${STREAMS} open, ${opened.errors} errors`);
      await sleep(PAUSE_MS);
    }
    results.streams = rows;
    table(['path', 'open', 'errors', 'opened in s', 'agent RSS before → held MB', 'gateway RSS before → held MB'],
      rows.map((r) => [r.label, r.opened, r.errors, r.openSeconds.toFixed(1), `${r.before.agent.toFixed(0)} → ${r.held.agent.toFixed(0)}`, r.label === 'direct' ? '' : `${r.before.gateway.toFixed(0)} → ${r.held.gateway.toFixed(0)}`]));
  }
  if (ONLY.has('udp')) {
    section(`4. SOCKS5 UDP: datagrams/s echoed through one association, 64 in flight, 512 bytes, ${SECONDS} s, ${ROUNDS} round(s) interleaved, medians`);
    const echo = dgram.createSocket('udp4');
    echo.on('message', (msg, rinfo) => echo.send(msg, rinfo.port, rinfo.address));
    await new Promise((r) => echo.bind(0, HOST, r));
    const target = { host: HOST, port: echo.address().port };
    const runs = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const [label, host, port] of [['direct', HOST, ports.direct.socks], ['gateway', GATEWAY_HOST, ports.gateway.socks]]) {
        const out = await run(process.execPath, [join(LIB, 'udp-load.mjs'), JSON.stringify({
          via: { host, port, user: USER, pass: PASS }, target, seconds: SECONDS, window: 64, size: 512,
        })]);
        const res = JSON.parse(out.trim().split('\n').at(-1));
        console.log(`  · ${label}: ${res.perSecond.toFixed(0)} datagrams/s echoed, ${res.lost} lost of ${res.sent}`);
        if (QUICK && !(res.echoed > 0)) fault(`udp ${label}: no datagram echoed`);
        runs.push({ label, ...res });
      }
    }
    echo.close();
    const m = (label) => median(runs.filter((x) => x.label === label).map((x) => x.perSecond));
    results.udp = { direct: m('direct'), gateway: m('gateway'), lost: sum(runs.map((x) => x.lost)), sent: sum(runs.map((x) => x.sent)) };
    table(['direct datagrams/s', 'gateway datagrams/s', 'gateway × direct', 'lost / sent'],
      [[results.udp.direct.toFixed(0), results.udp.gateway.toFixed(0), `${(results.udp.gateway / results.udp.direct).toFixed(2)}×`, `${results.udp.lost} / ${results.udp.sent}`]]);
  }
  console.log(`\nload average at end: ${loadavg()}`);
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(results, null, 2)}\n`);
}

async function startOrigin() {
  const child = spawnWithLimit(process.execPath, [join(LIB, 'proxy-origin.mjs'), String(BULK_BYTES)], { cwd: ROOT });
  children.add(child);
  child.stderr.pipe(process.stderr);
  return firstLine(child, 'origin');
}

async function startPair(maxConnections) {
  const { build } = await import('esbuild');
  for (const name of ['gateway-agent', 'gateway-proc']) {
    await build({ entryPoints: [join(LIB, `${name}.ts`)], outfile: join(dir, `${name}.mjs`), bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
  }
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const id = randomUUID();
  const linkPort = await freePort();
  const gatewayChild = spawnWithLimit(process.execPath, [join(dir, 'gateway-proc.mjs'), JSON.stringify({
    id, trustKey: publicKey.export({ format: 'jwk' }).x, linkPort, listenHost: GATEWAY_HOST,
  })], { cwd: ROOT });
  children.add(gatewayChild);
  gatewayChild.stderr.pipe(process.stderr);
  await firstLine(gatewayChild, 'gateway');
  const ports = { direct: { http: await freePort(), socks: await freePort() }, gateway: { http: await freePort(), socks: await freePort() } };
  const agentChild = spawnWithLimit(process.execPath, [join(dir, 'gateway-agent.mjs'), JSON.stringify({
    listenHost: HOST, httpPort: ports.direct.http, socksPort: ports.direct.socks, egress: EGRESS, login: USER, password: PASS,
    maxConnectionsPerPort: maxConnections,
    gateway: { linkUrl: `http://${HOST}:${linkPort}`, id, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }), httpPort: ports.gateway.http, socksPort: ports.gateway.socks },
  })], { cwd: ROOT });
  children.add(agentChild);
  agentChild.stderr.pipe(process.stderr);
  await firstLine(agentChild, 'agent');
  // The gateway opens the customer ports when the link's ticket is checked.
  await waitForPort(ports.gateway.http, 15_000, gatewayChild, GATEWAY_HOST);
  await waitForPort(ports.gateway.socks, 15_000, gatewayChild, GATEWAY_HOST);
  return { agent: agentChild, gateway: gatewayChild, ports };
}

async function load(job) {
  const out = await run(process.execPath, [join(LIB, 'proxy-load.mjs'), JSON.stringify(job)]);
  return JSON.parse(out.trim().split('\n').at(-1));
}

function run(command, args) {
  return runToEnd(command, args, { cwd: ROOT, children });
}

function cleanup() {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
function sum(xs) { return xs.reduce((a, b) => a + b, 0); }
function median(xs) { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : 0; }
function loadavg() { return os.loadavg().map((x) => x.toFixed(2)).join(', '); }
function section(title) { console.log(`\n## ${title} (load average ${loadavg()})`); }
function table(head, rows) {
  console.log(`| ${head.join(' | ')} |`);
  console.log(`|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

