// The gateway (issue 18, item 5) against the direct path and against `ssh -R`, what farms behind NAT use today
// (issue 31, item 2: ProxySmart's way, the farm host runs `ssh -N -R <gatewayHost>:<port>:<agentHost>:<agentPort>`),
// in one run on this machine's loopback addresses:
//   1. bulk: BENCH_BULK_BYTES down and up through HTTP CONNECT, direct to the agent's proxy, through the gateway and
//      through the sshd-forwarded port (targets: gateway ≥ 0.85× direct, ≥ 1.5× ssh -R), with the CPU seconds per GB of
//      the agent and the gateway, and of sshd (its process tree: listener and session) and the ssh client;
//   2. 1 KB requests per second through the HTTP proxy (wrk, keep-alive, absolute URI): direct, gateway, ssh -R;
//   3. new HTTP CONNECT tunnels per second (BENCH_CONCURRENCY loops of open, 16 bytes echoed, close): direct, gateway,
//      ssh -R (target: gateway ≥ 1.5× ssh -R), with the CPU per tunnel of each side;
//   4. BENCH_STREAMS (5,000) tunnels held open at once through the gateway, all on one link: RSS of the gateway and of
//      the agent, against the agent holding as many direct tunnels;
//   5. SOCKS5 UDP: datagrams per second echoed through one association (64 in flight, 512 bytes), direct against the
//      gateway (bench/lib/udp-load.mjs; ssh -R forwards no UDP).
// Processes: the origin (bench/lib/proxy-origin.mjs), the agent side (bench/lib/gateway-agent.ts: one ModemProxy that
// listens itself and is also linked to the gateway), the gateway (bench/lib/gateway-proc.ts), each bundled by esbuild
// as the agent's build does, a private sshd and `ssh -N -R` to the agent's HTTP port (bench/lib/ssh-reverse.mjs:
// Debian's OpenSSH with its default algorithms, printed; needs root), and the load generators
// (bench/lib/proxy-load.mjs, wrk).
//
//   node bench/gateway.mjs            (about 3 minutes; installs wrk and openssh-server from Debian when missing)
//   BENCH_QUICK=1 node bench/gateway.mjs   (quick mode: 16 MiB, 1 s per step, 200 streams; installs nothing, fails when
//                                           wrk, sshd or ssh is missing or a path answers wrongly)
//   knobs: BENCH_BULK_BYTES, BENCH_ROUNDS (3), BENCH_SECONDS (4), BENCH_WRK_CONNECTIONS (32), BENCH_CONCURRENCY (32),
//          BENCH_STREAMS (5000), BENCH_ONLY=bulk,rps,tunnels,streams,udp, BENCH_PATHS=direct,gateway,ssh (the paths
//          measured in bulk, rps and tunnels; without ssh no sshd is started; `streams` adds a second gateway and agent
//          whose agent keeps no pooled link connections, every customer an HTTP/2 stream as before decision 047: the
//          same run's A/B of the pool), BENCH_POOL_HELLO=0 (pooled connections open with an HTTP upgrade, as before
//          the hello: A/B of the two handshakes across runs)
import dgram from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startGatewayPair } from './lib/gateway-pair.mjs';
import { cpuSeconds, ensureInstalled, firstLine, ioSyscalls, rssMb, runToEnd, spawnWithLimit } from './lib/proxy-procs.mjs';
import { QUICK, fault, knob as env } from './lib/quick.mjs';
import { startSshReverse } from './lib/ssh-reverse.mjs';

const BULK_BYTES = env('BENCH_BULK_BYTES', 512 << 20, 16 << 20);
const ROUNDS = env('BENCH_ROUNDS', 3, 1);
const SECONDS = env('BENCH_SECONDS', 4, 1);
const WRK_CONNECTIONS = env('BENCH_WRK_CONNECTIONS', 32, 16);
const TUNNEL_CONCURRENCY = env('BENCH_CONCURRENCY', 32, 16);
const STREAMS = env('BENCH_STREAMS', 5000, 200);
/** How long the streams are held before RSS is read, and the pause before the next path (RSS settles). */
const HOLD_MS = QUICK ? 200 : 2000;
const PAUSE_MS = QUICK ? 0 : 3000;
/** Extra flags for the gateway's and the agent's processes, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' (then
 * `node bench/lib/proxy-profile.mjs /tmp/prof/*.cpuprofile`: the bundles carry source maps). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'bulk,rps,tunnels,streams,udp').split(',').map((s) => s.trim()));
const PATHS = new Set((process.env.BENCH_PATHS ?? 'direct,gateway,ssh').split(',').map((s) => s.trim()));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LIB = fileURLToPath(new URL('./lib/', import.meta.url));
const HOST = '127.0.0.1';
const GATEWAY_HOST = '127.0.0.5';
/** The address of the `ssh -R` gateway: its sshd and the port it forwards (another machine's, as far as sockets go). */
const SSH_HOST = '127.0.0.6';
const EGRESS = '127.0.9.9';
const USER = 'bench';
const PASS = 'bench-secret-1';

const children = new Set();
const dir = mkdtempSync(join(os.tmpdir(), 'cellport-gateway-bench-'));
const results = { date: new Date().toISOString(), load: [], ssh: null, bulk: [], rps: [], tunnels: [], streams: null, udp: null };
/** The `ssh -R` peer (sshd and the client), stopped client first so the sshd's session ends with it. */
let sshPeer = null;
process.on('SIGINT', () => { cleanup(); process.exit(130); });

try {
  await main();
} finally {
  await sshPeer?.stop().catch(() => {});
  cleanup();
}

async function main() {
  console.log(`$ node bench/gateway.mjs${QUICK ? ' (BENCH_QUICK=1)' : ''}`);
  console.log(`${results.date} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim()} · Node ${process.version} · load average ${loadavg()}`);
  if (ONLY.has('rps')) ensureInstalled(['wrk'], { install: !QUICK });
  const withSsh = PATHS.has('ssh') && (ONLY.has('bulk') || ONLY.has('rps') || ONLY.has('tunnels'));
  if (withSsh) ensureInstalled(['sshd', 'ssh', 'ssh-keygen'], { install: !QUICK });

  const origin = await startOrigin();
  const { agent, gateway, ports } = await startPair(Math.max(STREAMS, WRK_CONNECTIONS) + 1000);
  const streamsPair = PATHS.has('streams') ? await startPair(Math.max(STREAMS, WRK_CONNECTIONS) + 1000, 0) : null;
  const viaStreams = streamsPair && { kind: 'connect', host: GATEWAY_HOST, port: streamsPair.ports.gateway.http, user: USER, pass: PASS };
  const direct = { kind: 'connect', host: HOST, port: ports.direct.http, user: USER, pass: PASS };
  const viaGateway = { kind: 'connect', host: GATEWAY_HOST, port: ports.gateway.http, user: USER, pass: PASS };
  let viaSsh = null;
  if (withSsh) {
    sshPeer = await startSshReverse({ dir, gatewayHost: SSH_HOST, agentHost: HOST, forwards: { http: ports.direct.http }, track: (c) => children.add(c) });
    viaSsh = { kind: 'connect', host: SSH_HOST, port: sshPeer.ports.http, user: USER, pass: PASS };
    const n = sshPeer.negotiated;
    results.ssh = n;
    console.log(`ssh -R: ${n.version}, sshd on ${SSH_HOST}:${sshPeer.sshPort}, ${SSH_HOST}:${sshPeer.ports.http} → agent ${HOST}:${ports.direct.http}; negotiated (defaults): kex ${n.kex}, host key ${n.hostKey}, cipher ${n.cipher}, MAC ${n.mac}, compression ${n.compression}`);
  }
  /** CPU seconds so far: agent, gateway, sshd with its session processes, ssh client; then the streams pair's agent and gateway. */
  const cpuNow = () => [cpuSeconds(agent.pid), cpuSeconds(gateway.pid), sshPeer ? cpuSeconds(sshPeer.sshd.pid, true) : 0, sshPeer ? cpuSeconds(sshPeer.client.pid) : 0,
    streamsPair ? cpuSeconds(streamsPair.agent.pid) : 0, streamsPair ? cpuSeconds(streamsPair.gateway.pid) : 0];
  /** The agent's and the gateway's process of a path (the streams pair's for 'gateway streams'), as indexes into cpuNow(). */
  const sides = (label) => (label === 'gateway streams' ? [4, 5] : [0, 1]);
  const paths = [['direct', direct], ['gateway', viaGateway], ['gateway streams', viaStreams], ['ssh -R', viaSsh]]
    .filter(([label]) => PATHS.has(label === 'gateway streams' ? 'streams' : label.split(' ')[0]));

  if (ONLY.has('bulk')) {
    section(`1. Bulk: ${BULK_BYTES / 2 ** 20} MiB per transfer, one tunnel, ${ROUNDS} round(s) interleaved, medians`);
    const runs = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const direction of ['down', 'up']) {
        for (const [label, via] of paths) {
          const cpu0 = cpuNow();
          const [agentPid, gatewayPid] = label === 'gateway streams' ? [streamsPair.agent.pid, streamsPair.gateway.pid] : [agent.pid, gateway.pid];
          const io0 = [ioSyscalls(agentPid), ioSyscalls(gatewayPid)];
          const res = await load({ mode: 'bulk', via, target: { host: HOST, port: direction === 'down' ? origin.source : origin.sink }, direction, bytes: BULK_BYTES });
          const all = cpuNow().map((c, i) => c - cpu0[i]);
          const [a, g] = sides(label);
          const cpu = [all[a], all[g], all[2], all[3]];
          // System calls per MiB relayed: what the link's chunking costs the kernel side, a count the load cannot skew.
          const perMiB = (pid, i) => {
            const io = ioSyscalls(pid);
            return `${((io.reads - io0[i].reads) / (res.bytes / 2 ** 20)).toFixed(1)} r + ${((io.writes - io0[i].writes) / (res.bytes / 2 ** 20)).toFixed(1)} w`;
          };
          console.log(`  · ${direction} ${label}: ${res.mbPerSecond.toFixed(0)} MB/s, CPU agent ${cpu[0].toFixed(2)} s, gateway ${cpu[1].toFixed(2)} s, sshd ${cpu[2].toFixed(2)} s, ssh ${cpu[3].toFixed(2)} s; syscalls per MiB agent ${perMiB(agentPid, 0)}, gateway ${perMiB(gatewayPid, 1)}`);
          runs.push({ direction, label, ...res, cpuAgent: cpu[0], cpuGateway: cpu[1], cpuSshd: cpu[2], cpuSsh: cpu[3] });
        }
      }
    }
    for (const direction of ['down', 'up']) {
      const m = (label) => median(runs.filter((x) => x.direction === direction && x.label === label).map((x) => x.mbPerSecond));
      const row = { direction, direct: m('direct'), gateway: m('gateway'), ssh: m('ssh -R'), streams: m('gateway streams') };
      row.ratio = row.gateway / row.direct;
      row.sshRatio = row.gateway / row.ssh;
      /** CPU seconds per GB of `what` over this direction's runs of `label`. */
      const perGb = (label, what) => {
        const xs = runs.filter((x) => x.direction === direction && x.label === label);
        return sum(xs.map(what)) / (sum(xs.map((x) => x.bytes)) / 1e9);
      };
      row.gatewayCpuPerGb = perGb('gateway', (x) => x.cpuGateway);
      row.streamsGatewayCpuPerGb = perGb('gateway streams', (x) => x.cpuGateway);
      row.streamsAgentCpuPerGb = perGb('gateway streams', (x) => x.cpuAgent);
      row.directAgentCpuPerGb = perGb('direct', (x) => x.cpuAgent);
      row.agentCpuPerGb = perGb('gateway', (x) => x.cpuAgent);
      row.sshdCpuPerGb = perGb('ssh -R', (x) => x.cpuSshd);
      row.sshAgentCpuPerGb = perGb('ssh -R', (x) => x.cpuAgent);
      row.sshClientCpuPerGb = perGb('ssh -R', (x) => x.cpuSsh);
      results.bulk.push(row);
    }
    table(['direction', 'direct MB/s', 'gateway MB/s', 'ssh -R MB/s', 'gateway × direct (target ≥ 0.85)', 'gateway × ssh -R (target ≥ 1.5)'],
      results.bulk.map((r) => [r.direction, r.direct.toFixed(0), r.gateway.toFixed(0), r.ssh.toFixed(0), met(r.ratio, 0.85), met(r.sshRatio, 1.5)]));
    // Issue 31's CPU targets: the gateway ≤ 0.4 s per GB, the agent through it ≤ 0.1 s per GB over its direct path.
    table(['direction', 'gateway CPU s/GB (target ≤ 0.4)', 'agent extra over direct s/GB (target ≤ 0.1)'],
      results.bulk.map((r) => [r.direction, `${r.gatewayCpuPerGb.toFixed(2)} ${r.gatewayCpuPerGb <= 0.4 ? 'met' : '**missed**'}`,
        `${(r.agentCpuPerGb - r.directAgentCpuPerGb).toFixed(2)} ${r.agentCpuPerGb - r.directAgentCpuPerGb <= 0.1 ? 'met' : '**missed**'}`]));
    if (streamsPair) {
      console.log('\nThe pool against HTTP/2 streams (the streams pair: an agent that keeps no pooled connections), same run:');
      table(['direction', 'pooled MB/s', 'streams MB/s', 'pooled × streams', 'gateway CPU s/GB pooled / streams', 'agent CPU s/GB pooled / streams / direct'],
        results.bulk.map((r) => [r.direction, r.gateway.toFixed(0), r.streams.toFixed(0), `${(r.gateway / r.streams).toFixed(2)}×`,
          `${r.gatewayCpuPerGb.toFixed(2)} / ${r.streamsGatewayCpuPerGb.toFixed(2)}`, `${r.agentCpuPerGb.toFixed(2)} / ${r.streamsAgentCpuPerGb.toFixed(2)} / ${r.directAgentCpuPerGb.toFixed(2)}`]));
    }
    console.log('\nCPU seconds per GB relayed (the gateway machine\'s side: our gateway or sshd with its session processes; the farm host\'s side: the agent, plus the ssh client for ssh -R):');
    table(['direction', 'gateway', 'sshd', 'agent via gateway', 'agent via ssh -R', 'ssh client', 'gateway path total', 'ssh -R path total', 'less CPU per GB (target)'],
      results.bulk.map((r) => {
        const ours = r.gatewayCpuPerGb + r.agentCpuPerGb;
        const theirs = r.sshdCpuPerGb + r.sshAgentCpuPerGb + r.sshClientCpuPerGb;
        return [r.direction, r.gatewayCpuPerGb.toFixed(2), r.sshdCpuPerGb.toFixed(2), r.agentCpuPerGb.toFixed(2), r.sshAgentCpuPerGb.toFixed(2), r.sshClientCpuPerGb.toFixed(2),
          ours.toFixed(2), theirs.toFixed(2), ours < theirs ? 'met' : '**missed**'];
      }));
  }

  if (ONLY.has('rps')) {
    section(`2. 1 KB requests/s through the HTTP proxy: wrk -t1 -c${WRK_CONNECTIONS} -d${SECONDS}s, keep-alive, ${ROUNDS} round(s) interleaved, medians`);
    const url = `http://${HOST}:${origin.http}/1k`;
    const script = join(dir, 'wrk.lua');
    writeFileSync(script, `wrk.path = "${url}"\nwrk.headers["Host"] = "${HOST}:${origin.http}"\nwrk.headers["Proxy-Authorization"] = "Basic ${Buffer.from(`${USER}:${PASS}`).toString('base64')}"\n`);
    const runs = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const [label, host, port] of [['direct', HOST, ports.direct.http], ['gateway', GATEWAY_HOST, ports.gateway.http],
        ['gateway streams', GATEWAY_HOST, streamsPair?.ports.gateway.http], ['ssh -R', SSH_HOST, sshPeer?.ports.http]]
        .filter(([label]) => PATHS.has(label === 'gateway streams' ? 'streams' : label.split(' ')[0]))) {
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
    results.rps = { direct: m('direct'), gateway: m('gateway'), streams: m('gateway streams'), ssh: m('ssh -R'), non2xx: sum(runs.map((x) => x.non2xx)) };
    if (streamsPair) console.log(`gateway streams: ${results.rps.streams.toFixed(0)} req/s; pooled × streams ${(results.rps.gateway / results.rps.streams).toFixed(2)}×`);
    table(['direct req/s', 'gateway req/s', 'ssh -R req/s', 'gateway × direct', 'gateway × ssh -R (target ≥ 1.5)', 'non-2xx'],
      [[results.rps.direct.toFixed(0), results.rps.gateway.toFixed(0), results.rps.ssh.toFixed(0), `${(results.rps.gateway / results.rps.direct).toFixed(2)}×`,
        met(results.rps.gateway / results.rps.ssh, 1.5), results.rps.non2xx]]);
  }

  if (ONLY.has('tunnels')) {
    section(`3. New HTTP CONNECT tunnels/s: ${TUNNEL_CONCURRENCY} loops, ${SECONDS} s each, ${ROUNDS} round(s) interleaved, medians; each tunnel: connect, CONNECT with credentials to the echo, 16 bytes there and back, close`);
    const runs = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const [label, via] of paths) {
        const cpu0 = cpuNow();
        const res = await load({ mode: 'tunnels', via, target: { host: HOST, port: origin.echo }, seconds: SECONDS, concurrency: TUNNEL_CONCURRENCY });
        const all = cpuNow().map((c, i) => c - cpu0[i]);
        const [a, g] = sides(label);
        const cpu = [all[a], all[g], all[2], all[3]];
        const us = (s) => (res.ok ? (s / res.ok) * 1e6 : 0);
        // The gateway machine's side (our gateway, or sshd) and the farm host's side (the agent, plus the ssh client).
        const row = { label, ...res, gatewayUs: us(label === 'ssh -R' ? cpu[2] : cpu[1]), farmUs: us(cpu[0] + (label === 'ssh -R' ? cpu[3] : 0)) };
        console.log(`  · ${label}: ${res.perSecond.toFixed(0)} tunnels/s, p50 ${res.p50.toFixed(1)} ms, p99 ${res.p99.toFixed(1)} ms, errors ${res.errors}${res.errors ? ` ${JSON.stringify(res.errorKinds)}` : ''}`);
        if (QUICK && !(res.ok > 0)) fault(`tunnels ${label}: no tunnel completed`);
        if (QUICK && res.errors) fault(`tunnels ${label}: ${res.errors} errors ${JSON.stringify(res.errorKinds)}`);
        runs.push(row);
      }
    }
    const m = (label, key) => median(runs.filter((x) => x.label === label).map((x) => x[key]));
    results.tunnels = paths.map(([label]) => ({
      label, perSecond: m(label, 'perSecond'), p50: m(label, 'p50'), p99: m(label, 'p99'), errors: sum(runs.filter((x) => x.label === label).map((x) => x.errors)),
      gatewayUs: m(label, 'gatewayUs'), farmUs: m(label, 'farmUs'),
    }));
    const byLabel = (label) => results.tunnels.find((x) => x.label === label);
    const [d, g, ssh] = [byLabel('direct'), byLabel('gateway'), byLabel('ssh -R')];
    table(['path', 'tunnels/s', '× direct', 'p50 / p99 ms', 'errors', 'gateway side CPU µs/tunnel', 'farm side CPU µs/tunnel'],
      results.tunnels.map((x) => [x.label, x.perSecond.toFixed(0), d ? `${(x.perSecond / d.perSecond).toFixed(2)}×` : '', `${x.p50.toFixed(1)} / ${x.p99.toFixed(1)}`, x.errors,
        x.label === 'direct' ? '' : x.gatewayUs.toFixed(0), x.farmUs.toFixed(0)]));
    if (g && ssh) console.log(`gateway × ssh -R, new tunnels/s: ${met(g.perSecond / ssh.perSecond, 1.5)} (target ≥ 1.5)`);
  }

  if (ONLY.has('streams')) {
    section(`4. ${STREAMS.toLocaleString('en')} tunnels held open at once (to an echo that never closes)`);
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
    section(`5. SOCKS5 UDP: datagrams/s echoed through one association, 64 in flight, 512 bytes, ${SECONDS} s, ${ROUNDS} round(s) interleaved, medians`);
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
  if (NODE_ARGS.length) {
    // A profile is written when the process exits on its own: both end when their stdin closes.
    for (const child of [agent, gateway]) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    }
  }
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(results, null, 2)}\n`);
}

async function startOrigin() {
  const child = spawnWithLimit(process.execPath, [join(LIB, 'proxy-origin.mjs'), String(BULK_BYTES)], { cwd: ROOT });
  children.add(child);
  child.stderr.pipe(process.stderr);
  return firstLine(child, 'origin');
}

function startPair(maxConnections, poolSize) {
  return startGatewayPair({
    dir, nodeArgs: NODE_ARGS, track: (c) => children.add(c), maxConnections, host: HOST, gatewayHost: GATEWAY_HOST, egress: EGRESS, user: USER, pass: PASS, poolSize,
  });
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

/** A ratio with whether it reaches its target. */
function met(ratio, target) { return `${ratio.toFixed(2)}× ${ratio >= target ? 'met' : '**missed**'}`; }
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

