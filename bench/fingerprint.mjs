// What the OS fingerprint presets cost (issue 30, item 7; docs/decisions/051-fingerprint-presets-per-socket.md): through one
// modem's ports, one per preset, the real agent code (bench/lib/fingerprint-agent.ts) in an "agent" network namespace,
// a target in another (veth between them), all in one run, interleaved round by round:
//   1. new tunnels per second (CONNECT, 16 bytes there and back, close; BENCH_CONCURRENCY loops): each preset against
//      native (target ≥ 0.9×), and the CPU the agent and its children spent per 1,000
//      tunnels (a figure that holds up better than the rate on a busy machine: it counts work, not waiting);
//   2. bulk: one download of BENCH_BULK_BYTES through a tunnel: each preset against native (target ≥ 0.95×), and the
//      agent's CPU seconds per GB moved, the site's (its sending, and the receive path the kernel runs in its
//      context), the datagrams the agent's namespace forwarded per MB (0 since decision 051: a preset socket is the
//      host's own, rewritten on the interface's way out; decision 037's namespaces forwarded ~25 per MB), and what the
//      site's sending waited on (tcp_info's rwnd_limited: the receiving end's window; a preset's scale caps it, iOS's
//      2 most).
//
//   sudo node bench/fingerprint.mjs          (root: namespaces for agent and site, tc, clang, libbpf-dev)
//   BENCH_QUICK=1 node bench/fingerprint.mjs (quick mode: 1 s per step, 8 MiB; fails when a preset's port does not work)
//   Knobs: BENCH_SECONDS (per step, 3), BENCH_ROUNDS (2; medians; each round starts one preset later, so 5 rounds put
//   every preset in every place), BENCH_BULK_BYTES (256 MiB), BENCH_CONCURRENCY (16).
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof': extra flags for the agent's Node (profile it; the profile is
//   written when the agent stops at the end of the run).
//
// Not figures of record on a shared machine: the lead records them (bench/BENCHMARKS.md).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { countersOf, deltaOf } from './lib/kernel-counters.mjs';
import { cpuSeconds } from './lib/proxy-procs.mjs';
import { QUICK, fault, knob } from './lib/quick.mjs';
import { watchSender } from './lib/sender-limits.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const PRESETS = ['native', 'windows', 'macos', 'ios', 'android'];
const SECONDS = knob('BENCH_SECONDS', 3, 0.5);
const ROUNDS = knob('BENCH_ROUNDS', 2, 1);
const BULK = knob('BENCH_BULK_BYTES', 256 * 1024 * 1024, 8 * 1024 * 1024);
const CONCURRENCY = knob('BENCH_CONCURRENCY', 16, 4);
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const TARGET = '100.128.0.30';
const EGRESS = '10.232.0.1';
const tag = randomBytes(2).toString('hex');
const NS = { agent: `bfp-agent-${tag}`, target: `bfp-target-${tag}` };

if (process.getuid?.() !== 0) {
  console.error('bench/fingerprint.mjs needs root (network namespaces, nftables, tc): run it as root, as CI does.');
  process.exit(1);
}

const sh = (ns, script) => execFileSync('ip', ['netns', 'exec', ns, 'sh', '-c', script], { stdio: ['ignore', 'ignore', 'inherit'] });
const children = [];
function cleanUp() {
  // Each child leads its own process group (whatever the agent starts is in it).
  for (const child of children) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
  const names = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).split('\n').map((l) => l.split(' ')[0]);
  for (const ns of names.filter((n) => n && (Object.values(NS).includes(n) || n.startsWith(`bfp-${tag}-`)))) {
    try { execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' }); } catch { /* gone */ }
  }
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(1));

for (const ns of Object.values(NS)) execFileSync('ip', ['netns', 'add', ns]);
execFileSync('ip', ['-n', NS.agent, 'link', 'add', 'up0', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', NS.target]);
sh(NS.agent, `ip link set lo up && ip addr add ${EGRESS}/30 dev up0 && ip link set up0 up && ip route add default via 10.232.0.2`);
sh(NS.target, `ip link set lo up && ip addr add 10.232.0.2/30 dev eth0 && ip addr add ${TARGET}/32 dev lo && ip link set eth0 up`);
// The SYNs the site receives (a first one and each retransmission): per tunnel, what the tunnels waited on.
sh(NS.target, 'nft add table inet bench && nft add counter inet bench syns && nft add chain inet bench in "{ type filter hook input priority 0; }" '
  + '&& nft add rule inet bench in tcp dport 7001 tcp flags \\& \\(syn\\|ack\\) == syn counter name syns');
const sitesSyns = () => Number(/packets (\d+)/.exec(execFileSync('ip', ['netns', 'exec', NS.target, 'nft', 'list', 'counter', 'inet', 'bench', 'syns'], { encoding: 'utf8' }))[1]);

/** Starts `args` in a namespace; resolves with the child and its first stdout line, parsed. */
function startIn(ns, args) {
  const child = spawn('ip', ['netns', 'exec', ns, ...args], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ').slice(0, 80)} exited (${code})`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ child, first: JSON.parse(line) }));
  });
}

// The target: an echo that closes after 16 bytes, and a source that sends the number of bytes asked for.
const origin = `
const net = require('node:net');
net.createServer((s) => { let n = 0; s.on('error', () => {}); s.on('data', (d) => { s.write(d); n += d.length; if (n >= 16) s.end(); }); }).listen(7001, '${TARGET}');
const chunk = Buffer.alloc(1 << 20, 'y');
net.createServer((s) => { s.on('error', () => {}); s.once('data', (d) => {
  let left = Number(String(d).trim());
  const pump = () => { while (left > 0) { const n = Math.min(left, chunk.length); left -= n; if (!s.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return s.once('drain', pump); } s.end(); };
  pump(); }); }).listen(7002, '${TARGET}', () => console.log('{"ready":true}'));`;
const { child: site } = await startIn(NS.target, [process.execPath, '-e', origin]);
const sitePid = site.pid;
const { child: agent, first } = await startIn(NS.agent, [process.execPath, ...NODE_ARGS, '--import', 'tsx', 'bench/lib/fingerprint-agent.ts', EGRESS, tag]);
const agentPid = agent.pid;

function load(mode, preset, amount) {
  try {
    return loadOnce(mode, preset, amount);
  } catch (err) {
    fault(`${preset}: the ${mode} load failed: ${String(err.message).split('\n')[0]}`);
    return mode === 'tunnels' ? { ok: 0, errors: 1, perSecond: 0 } : { bytes: 0, seconds: 1, ok: false };
  }
}

function loadOnce(mode, preset, amount) {
  const out = execFileSync('ip', ['netns', 'exec', NS.agent, process.execPath, 'bench/lib/fingerprint-load.mjs', mode, String(first.http), preset, TARGET,
    mode === 'tunnels' ? '7001' : '7002', String(amount), String(CONCURRENCY)], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop());
}

// Warm-up: each preset's namespace is made on its port's first connection; that is setup, not cost per connection.
// (Quick mode's one round pays for it in its figures, which are not figures.)
for (const preset of QUICK ? [] : PRESETS) {
  const warm = load('tunnels', preset, 0.3);
  if (!(warm.ok > 0) || warm.errors > 0) fault(`${preset}: its port did not carry tunnels (${warm.ok} ok, ${warm.errors} errors)`);
}

const tunnels = Object.fromEntries(PRESETS.map((p) => [p, []]));
const bulk = Object.fromEntries(PRESETS.map((p) => [p, []]));
const cpuPerGb = Object.fromEntries(PRESETS.map((p) => [p, []]));
/** Per bulk download: the site's CPU per GB (its sending, and the receive path the kernel runs in its context). */
const siteCpuPerGb = Object.fromEntries(PRESETS.map((p) => [p, []]));
/** Per bulk download: datagrams the agent namespace forwarded per MB (a preset's hop through the host; native 0). */
const forwardedPerMb = Object.fromEntries(PRESETS.map((p) => [p, []]));
const cpuPerKTunnels = Object.fromEntries(PRESETS.map((p) => [p, []]));
/** Per bulk download: the share of the site's sending limited by the receiver's window, and by its own buffer (%). */
const senderLimits = Object.fromEntries(PRESETS.map((p) => [p, []]));
/** Per preset, summed over the rounds: tunnels, the site's SYNs and counters, the agent namespace's counters. */
const counted = Object.fromEntries(PRESETS.map((p) => [p, { tunnels: 0, syns: 0, site: {}, agent: {} }]));
const add = (into, delta) => { for (const [k, v] of Object.entries(delta)) into[k] = k === 'ConntrackEntries' ? Math.max(into[k] ?? 0, v) : (into[k] ?? 0) + v; };
for (let round = 0; round < ROUNDS; round++) {
  // Each round starts one preset later: over 5 rounds every preset takes every place once, so what a place costs
  // (the round's first step after the last one's bulk, conntrack filling up along the round) is not one preset's.
  for (const preset of PRESETS.map((_, i) => PRESETS[(i + round) % PRESETS.length])) {
    const tunnelCpu = cpuSeconds(agentPid, true);
    const [site, agentNs, syns] = [countersOf(NS.target), countersOf(NS.agent), sitesSyns()];
    const t = load('tunnels', preset, SECONDS);
    cpuPerKTunnels[preset].push(((cpuSeconds(agentPid, true) - tunnelCpu) * 1000) / Math.max(1, t.ok / 1000));
    counted[preset].tunnels += t.ok;
    counted[preset].syns += sitesSyns() - syns;
    add(counted[preset].site, deltaOf(site, countersOf(NS.target)));
    add(counted[preset].agent, deltaOf(agentNs, countersOf(NS.agent)));
    if (t.errors > 0) fault(`${preset}: ${t.errors} of ${t.ok + t.errors} tunnels failed`);
    tunnels[preset].push(t.perSecond);
    const cpu = cpuSeconds(agentPid);
    const siteCpu = cpuSeconds(sitePid);
    const forwarded = countersOf(NS.agent).IpForwDatagrams;
    const watch = watchSender(NS.target, 7002);
    const b = load('bulk', preset, BULK);
    senderLimits[preset].push(await watch.stop());
    if (!b.ok) fault(`${preset}: the bulk download got ${b.bytes} of ${BULK} bytes`);
    bulk[preset].push(b.bytes / b.seconds / 1e6);
    cpuPerGb[preset].push((cpuSeconds(agentPid) - cpu) / (b.bytes / 1e9));
    siteCpuPerGb[preset].push((cpuSeconds(sitePid) - siteCpu) / (b.bytes / 1e9));
    forwardedPerMb[preset].push((countersOf(NS.agent).IpForwDatagrams - forwarded) / (b.bytes / 1e6));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\nFingerprint presets against native, ${ROUNDS} round(s), medians (not figures of record on a shared machine)`);
console.log('preset    tunnels/s   ×native   CPU ms/1k tunnels   bulk MB/s   ×native   agent CPU s/GB   site CPU s/GB   forwarded/MB');
for (const preset of PRESETS) {
  const t = median(tunnels[preset]);
  const b = median(bulk[preset]);
  console.log(`${preset.padEnd(9)} ${t.toFixed(0).padStart(9)} ${(t / median(tunnels.native)).toFixed(2).padStart(9)} ${median(cpuPerKTunnels[preset]).toFixed(0).padStart(19)} ${b.toFixed(0).padStart(11)} ${(b / median(bulk.native)).toFixed(2).padStart(9)} ${median(cpuPerGb[preset]).toFixed(2).padStart(16)} ${median(siteCpuPerGb[preset]).toFixed(2).padStart(15)} ${median(forwardedPerMb[preset]).toFixed(1).padStart(14)}`);
}
// What the tunnels waited on, counted (the machine's load does not change a count): the SYNs the site received per
// tunnel (1.00: none retransmitted), the site's TIME_WAIT sockets killed by the client's reset after the site refused
// a SYN on a reused tuple (TcpExtTWKilled) and those refused by timestamps (TcpExtPAWSTimewait), per 1,000 tunnels;
// the agent namespace's conntrack: its entries at the end of the step, inserts that failed (a tuple clash) and drops;
// its own sockets' SYN retransmissions (native's; a preset's are its namespace's, seen as the site's extra SYNs).
console.log('\npreset    site SYNs/tunnel   TWKilled/1k   PAWSTimewait/1k   conntrack entries   insert_failed   drop   agent SynRetrans');
for (const preset of PRESETS) {
  const c = counted[preset];
  const per1k = (n) => ((n ?? 0) * 1000 / Math.max(1, c.tunnels)).toFixed(1);
  console.log(`${preset.padEnd(9)} ${(c.syns / Math.max(1, c.tunnels)).toFixed(3).padStart(16)} ${per1k(c.site.TcpExtTWKilled).padStart(13)} ${per1k(c.site.TcpExtPAWSTimewait).padStart(17)}`
    + ` ${String(c.agent.ConntrackEntries ?? 0).padStart(19)} ${String(c.agent.ConntrackInsert_failed ?? 0).padStart(15)} ${String(c.agent.ConntrackDrop ?? 0).padStart(6)}`
    + ` ${String(c.agent.TcpExtTCPSynRetrans ?? 0).padStart(18)}`);
}
// What the site's bulk sending waited on (tcp_info): the receiving end's window (its scale, its buffers, the agent
// reading slowly) or its own send buffer; the rest of its busy time it sent as fast as the path took it.
console.log('\npreset    bulk: site rwnd-limited %   sndbuf-limited %   (medians; sampled: rounds)');
for (const preset of PRESETS) {
  // A download shorter than the poll (quick mode's 8 MiB) leaves no sample: no figure, not a zero.
  const l = senderLimits[preset].filter((x) => x.seen);
  const share = (key) => (l.length === 0 ? '-' : median(l.map((x) => x[key])).toFixed(1));
  console.log(`${preset.padEnd(9)} ${share('rwndLimited').padStart(24)} ${share('sndbufLimited').padStart(18)}   ${l.length}/${senderLimits[preset].length}`);
}
// The agent stops by itself (its namespaces and rules go with it) when its stdin ends.
agent.stdin.end();
await new Promise((resolve) => { agent.once('exit', resolve); setTimeout(resolve, 10_000); });
process.exit(); // the exit handler stops the target and removes the namespaces
