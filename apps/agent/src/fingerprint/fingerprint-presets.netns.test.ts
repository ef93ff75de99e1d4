import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINGERPRINT_PRESETS, fingerprintEchoResultSchema, ja4tOf, type FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import { nodeHeaders } from './preset-socket.js';

// Issue 30's proof: each fingerprint preset applied by the real agent code, checked by Debian's p0f at the far end.
// Two namespaces joined by a veth with TX checksum offload off on both ends (so a SYN with a bad checksum is dropped,
// not forgiven): the agent's (FingerprintHost and a ModemProxy port, fingerprint-netns-agent.ts: the preset sockets and
// the egress program on the modem's interface, decision 051) and a target's, which
// runs the fingerprint echo (p0f capturing on its veth) on port 8443 (not 80 or 443). The agent's port is switched
// from preset to preset; every connection through it is checked against the preset's p0f signature and label, JA4T,
// TTL, window, scale and MSS. UDP through a SOCKS5 association is checked for its TTL with tcpdump.
// Needs root, ip netns, nft (the HiLink router's NAT), tc, ethtool, p0f, tcpdump, clang with libbpf-dev (the egress
// program) and Node's headers (the preset socket addon). CI (.ci/run sets CELLPORT_REQUIRE_ROOT_TESTS=1) fails here when any is missing;
// elsewhere the suite is skipped by name.

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const helper = fileURLToPath(new URL('./fingerprint-netns-agent.ts', import.meta.url));
const echoMain = fileURLToPath(new URL('../fingerprint-echo-main.ts', import.meta.url));

function missing(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root';
  for (const tool of ['ip', 'nft', 'tc', 'clang', 'ethtool', 'p0f', 'tcpdump', 'stdbuf', 'cc || command -v clang || command -v gcc']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool.split(' ')[0]} is missing`;
    }
  }
  if (!exists('/usr/include/bpf/bpf_helpers.h')) return 'libbpf-dev is missing';
  if (!exists(`${nodeHeaders()}/node_api.h`)) return `Node's headers are missing in ${nodeHeaders()}`;
  return null;
}
function exists(path: string): boolean {
  try {
    execFileSync('test', ['-e', path]);
    return true;
  } catch {
    return false;
  }
}
const why = missing();
const required = process.env.CELLPORT_REQUIRE_ROOT_TESTS === '1';

const id = `${process.pid.toString(36)}${randomBytes(2).toString('hex')}`;
const NS = { agent: `cpf-agent-${id}`, target: `cpf-target-${id}`, router: `cpf-router-${id}` };
const TARGET = '100.128.0.20';
const ECHO_PORT = 8443;
const UDP_PORT = 5353;
const EGRESS = '10.231.0.1';
// IPv6: a modem whose egress is IPv6 reaches a target in 3fff::/20 (the documentation prefix the target policy lets
// through; 2001:db8::/32 it refuses) on its own echo port.
const EGRESS6 = 'fd00:231::1';
const TARGET6 = '3fff:128::20';
const ECHO6_PORT = ECHO_PORT + 2;
// A HiLink-like modem: its egress 192.168.8.100 on the agent's second link, behind a router namespace that NATs it to
// the target's side (as the dongle's own NAT does), one hop more that the agent compensates (hops: 1).
const HILINK_EGRESS = '192.168.8.100';
const HILINK_ECHO_PORT = ECHO_PORT + 3;
const syns6: typeof syns = [];

const children: ChildProcess[] = [];
const syns: Array<{ client: string; clientPort: number; label: string | null; rawSig: string }> = [];
let call: <T>(op: string, args?: object) => Promise<T>;

async function startIn(ns: string, command: string[], onLine: (message: Record<string, unknown>) => void, ready: (m: Record<string, unknown>) => boolean): Promise<ChildProcess> {
  const child = spawn('ip', ['netns', 'exec', ns, ...command], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${command.join(' ').slice(0, 80)} in ${ns} exited (${code}) before it was ready`)));
    lines.on('line', (line) => {
      const message = JSON.parse(line) as Record<string, unknown>;
      if (ready(message)) resolve();
      else onLine(message);
    });
  });
  return child;
}

const inNs = (ns: string, ...args: string[]) => exec('ip', ['netns', 'exec', ns, ...args]);

interface Check { status: number; result?: unknown; body?: string }

/**
 * The SYN's MSS and window over IPv6, where the veth's MTU gives an MSS of 1440: Windows the largest multiple of it
 * under 65536 (45 × 1440, as Windows sends), Apple 65535, Android p0f's own mss*44 (the egress program writes them).
 */
function shape6(preset: Exclude<FingerprintPresetId, 'native'>): { mss: number; window: number } {
  const mss = 1440;
  if (preset === 'windows') return { mss, window: Math.floor(65535 / mss) * mss };
  if (preset === 'android') return { mss, window: 44 * mss };
  return { mss, window: 65535 };
}

/** A connection through the port to the echo, with the echo's answer checked against its schema. */
async function through(op: 'check' | 'checkHttp' | 'plainGet' = 'check') {
  const answer = await call<Check>(op, { host: TARGET, port: ECHO_PORT });
  expect(answer.status, answer.body).toBe(200);
  return fingerprintEchoResultSchema.parse(answer.result);
}

/** What p0f must report for a preset: its raw signature field by field (p0f writes `ittl+dist` and `mss*N`). */
function expectPreset(result: ReturnType<typeof fingerprintEchoResultSchema.parse>, preset: FingerprintPresetId, from: string | RegExp = EGRESS) {
  const p = FINGERPRINT_PRESETS[preset];
  const [, ttl, olen, mss, , layout, quirks, pclass] = result.p0f.signature.split(':');
  expect({ ttl, olen, mss, layout, quirks, pclass }).toEqual({
    ttl: `${p.ttl}+0`, olen: '0', mss: String(p.mss), layout: p.options.map((o) => (o === 'eol' ? 'eol+1' : o)).join(','), quirks: 'df,id+', pclass: '0',
  });
  expect({ ttl: result.ttl, initialTtl: result.initialTtl, window: result.window, windowScale: result.windowScale, mss: result.mss, ja4t: result.ja4t })
    .toEqual({ ttl: p.ttl, initialTtl: p.ttl, window: p.window, windowScale: p.windowScale, mss: p.mss, ja4t: p.ja4t });
  // The preset's raw signature, in p0f's database form, is what p0f recorded (the version and window spelled out).
  const recorded = result.p0f.signature.replace(/^4:(\d+)\+0:/, '*:$1:').replace(/:mss\*(\d+),/, (_m, n: string) => `:${Number(n) * p.mss},`);
  expect(recorded).toBe(p.p0f.signature);
  expect(result.p0f.label ?? '').toContain(p.p0f.label);
  expect(result.ip).toMatch(from);
}

/**
 * What p0f must report for a preset over IPv6: version 6, the preset's hop limit, layout and scale; the MSS and window
 * IPv6 gives (shape6); no quirks (IPv6 has no DF or IP ID, and a preset socket sends no flow label).
 */
function expectPreset6(result: ReturnType<typeof fingerprintEchoResultSchema.parse>, preset: FingerprintPresetId) {
  const p = FINGERPRINT_PRESETS[preset];
  const shape = preset === 'native' ? { mss: 1440, window: 64800 } : shape6(preset);
  const [version, ttl, olen, mss, , layout, quirks, pclass] = result.p0f.signature.split(':');
  expect({ version, ttl, olen, mss, layout, quirks, pclass }).toEqual({
    version: '6', ttl: `${p.ttl}+0`, olen: '0', mss: String(shape.mss), layout: p.options.map((o) => (o === 'eol' ? 'eol+1' : o)).join(','), quirks: '', pclass: '0',
  });
  expect({ ttl: result.ttl, window: result.window, windowScale: result.windowScale, mss: result.mss, ja4t: result.ja4t })
    .toEqual({ ttl: p.ttl, window: shape.window, windowScale: p.windowScale, mss: shape.mss, ja4t: ja4tOf({ ...p, ...shape }) });
  if (preset !== 'native') expect(result.p0f.label ?? '').toContain(p.p0f.label);
  expect(result.ip).toBe(EGRESS6);
}

if (required && why) {
  describe('fingerprint presets in network namespaces', () => {
    it('runs in CI (CELLPORT_REQUIRE_ROOT_TESTS=1)', () => {
      throw new Error(`The fingerprint presets' namespace test cannot run here: ${why}. CI must run it as root with the packages .ci/run installs.`);
    });
  });
}

describe.skipIf(why !== null)(`fingerprint presets in network namespaces${why ? ` (skipped: ${why})` : ''}`, () => {
  beforeAll(async () => {
    for (const ns of Object.values(NS)) await exec('ip', ['netns', 'add', ns]);
    await exec('ip', ['-n', NS.agent, 'link', 'add', 'up0', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', NS.target]);
    await inNs(NS.agent, 'sh', '-c', `ip link set lo up && ip addr add ${EGRESS}/30 dev up0 && ip link set up0 up && ip route add default via 10.231.0.2 && ethtool -K up0 tx off >/dev/null`);
    await inNs(NS.target, 'sh', '-c', `ip link set lo up && ip addr add 10.231.0.2/30 dev eth0 && ip addr add ${TARGET}/32 dev lo && ip link set eth0 up && ethtool -K eth0 tx off rx on >/dev/null`);
    await inNs(NS.agent, 'sh', '-c', `ip -6 addr add ${EGRESS6}/64 dev up0 nodad && ip -6 route add default via fd00:231::2`);
    await inNs(NS.target, 'sh', '-c', `ip -6 addr add fd00:231::2/64 dev eth0 nodad && ip -6 addr add ${TARGET6}/128 dev lo`);
    await exec('ip', ['-n', NS.agent, 'link', 'add', 'up1', 'type', 'veth', 'peer', 'name', 'lan0', 'netns', NS.router]);
    await exec('ip', ['-n', NS.router, 'link', 'add', 'wan0', 'type', 'veth', 'peer', 'name', 'eth1', 'netns', NS.target]);
    // The modem's own routing table (a host's per-modem table, found by the rule for its egress address).
    await inNs(NS.agent, 'sh', '-c', `ip addr add ${HILINK_EGRESS}/24 dev up1 && ip link set up1 up && ethtool -K up1 tx off >/dev/null && ip route add default via 192.168.8.1 table 108 && ip rule add from ${HILINK_EGRESS} lookup 108 priority 500`);
    await inNs(NS.router, 'sh', '-c', 'ip link set lo up && ip addr add 192.168.8.1/24 dev lan0 && ip addr add 10.233.0.1/30 dev wan0 && ip link set lan0 up && ip link set wan0 up && ethtool -K wan0 tx off >/dev/null && ip route add default via 10.233.0.2 && sysctl -qw net.ipv4.ip_forward=1 && nft add table ip hilink && nft add chain ip hilink post "{ type nat hook postrouting priority srcnat; }" && nft add rule ip hilink post oifname wan0 masquerade');
    await inNs(NS.target, 'sh', '-c', 'ip addr add 10.233.0.2/30 dev eth1 && ip link set eth1 up && ethtool -K eth1 tx off rx on >/dev/null');
    // The target: the echo (p0f on its veth), whose every SYN report is recorded here.
    await startIn(NS.target, [process.execPath, '--import', 'tsx', echoMain, '--host', TARGET, '--port', String(ECHO_PORT), '--iface', 'eth0', '--log-syns'],
      (m) => { if (m.syn) syns.push(m.syn as never); }, (m) => m.msg === 'Fingerprint echo listening');
    await startIn(NS.target, [process.execPath, '--import', 'tsx', echoMain, '--host', TARGET6, '--port', String(ECHO6_PORT), '--iface', 'eth0', '--log-syns'],
      (m) => { if (m.syn) syns6.push(m.syn as never); }, (m) => m.msg === 'Fingerprint echo listening');
    // The HiLink side's echo: p0f on the target's link to the router.
    await startIn(NS.target, [process.execPath, '--import', 'tsx', echoMain, '--host', TARGET, '--port', String(HILINK_ECHO_PORT), '--iface', 'eth1'],
      () => undefined, (m) => m.msg === 'Fingerprint echo listening');
    const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
    const agent = await startIn(NS.agent, [process.execPath, '--import', 'tsx', helper], (m) => {
      const waiter = pending.get(m.id as number);
      pending.delete(m.id as number);
      if (m.ok) waiter?.resolve(m.result);
      else waiter?.reject(new Error(String(m.error)));
    }, (m) => m.ready === true);
    agent.once('exit', (code) => { for (const w of pending.values()) w.reject(new Error(`the agent's helper exited (${code})`)); });
    let next = 1;
    call = <T>(op: string, args: object = {}) => new Promise<T>((resolve, reject) => {
      const n = next++;
      pending.set(n, { resolve: resolve as (v: unknown) => void, reject });
      agent.stdin!.write(`${JSON.stringify({ id: n, op, args })}\n`);
    });
    await call('start', { egress: EGRESS, preference: 0xd000 + (process.pid % 0x800) * 4 });
    await call('startModem', { which: 'v6', egress: EGRESS6 });
    await call('startModem', { which: 'hilink', egress: HILINK_EGRESS, hops: 1 });
  }, 60_000);

  afterAll(async () => {
    await call?.('stop').catch(() => undefined);
    // SIGTERM first: the echoes stop their p0f; what is still there after 5 s is killed.
    await Promise.all(children.map((child) => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => { clearTimeout(force); resolve(); });
      child.kill('SIGTERM');
    })));
    for (const ns of Object.values(NS)) await exec('ip', ['netns', 'del', ns]).catch(() => undefined);
  });

  it('native: the port adds nothing, p0f sees the host\'s own Linux SYN', async () => {
    const result = await through();
    expect(result.p0f.signature).toMatch(/^4:64\+0:0:1460:mss\*44,\d+:mss,sok,ts,nop,ws:df,id\+:0$/);
    expect(result.p0f.label).toMatch(/^Linux/);
  });

  for (const preset of ['windows', 'macos', 'ios', 'android'] as const) {
    it(`${preset}: p0f at the far end records the preset's signature and label (port ${ECHO_PORT}, not 80/443)`, async () => {
      await call('setPreset', { preset });
      expectPreset(await through(), preset);
      // A second connection and the SOCKS5 path give the same SYN.
      const socks = await call<{ reply: number; result: unknown }>('socksCheck', { host: TARGET, port: ECHO_PORT });
      expect(socks.reply).toBe(0);
      expectPreset(fingerprintEchoResultSchema.parse(socks.result), preset);
    }, 30_000);
  }

  it('IPv6: each preset leaves an IPv6 modem with its hop limit, window, scale and layout; p0f labels it; native is the host\'s own', async () => {
    const via6 = async (op: 'check' | 'socksCheck') => {
      const answer = await call<Check & { reply?: number }>(op, { host: TARGET6, port: ECHO6_PORT, which: 'v6' });
      if (op === 'check') expect(answer.status, answer.body).toBe(200);
      else expect(answer.reply).toBe(0);
      return fingerprintEchoResultSchema.parse(answer.result);
    };
    await call('setPreset', { preset: null, which: 'v6' });
    const native = await via6('check');
    // The host's own SYN: its scale follows the host's buffers, its flow label is the kernel's (p0f: "flow").
    expect(native.p0f.signature).toMatch(/^6:64\+0:0:1440:mss\*45,\d+:mss,sok,ts,nop,ws:/);
    for (const preset of ['windows', 'macos', 'ios', 'android'] as const) {
      await call('setPreset', { preset, which: 'v6' });
      expectPreset6(await via6('check'), preset);
      expectPreset6(await via6('socksCheck'), preset);
    }
  }, 60_000);

  it('a burst of connections: each gets its own preset socket and leaves with the preset', async () => {
    // Each connection's socket is made with the preset's options as it asks (preset-socket.c): 40 at once, interleaved
    // with the proxy's other work, each rewritten on its way out.
    await call('setPreset', { preset: 'android' });
    const answers = await Promise.all(Array.from({ length: 40 }, () => call<Check>('check', { host: TARGET, port: ECHO_PORT })));
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(200);
      expectPreset(fingerprintEchoResultSchema.parse(answer.result), 'android');
    }
  }, 60_000);

  it('a HiLink-like modem (its own NAT one hop after the host): the far end sees the preset\'s TTL exactly; native shows the extra hop', async () => {
    const via = async (preset: FingerprintPresetId | null) => {
      await call('setPreset', { preset, which: 'hilink' });
      const answer = await call<Check>('check', { host: TARGET, port: HILINK_ECHO_PORT, which: 'hilink' });
      expect(answer.status, answer.body).toBe(200);
      return fingerprintEchoResultSchema.parse(answer.result);
    };
    // Native: the host's 64 arrives as 63 (p0f: `63+1`, sent as 64 one router ago), the dongle's hop.
    const native = await via(null);
    expect(native.p0f.signature).toMatch(/^4:63\+1:/);
    expect({ ttl: native.ttl, initialTtl: native.initialTtl }).toEqual({ ttl: 63, initialTtl: 64 });
    // The router's masquerade is what the far end sees as the client.
    for (const preset of ['windows', 'ios'] as const) expectPreset(await via(preset), preset, '10.233.0.1');
    // UDP: the datagram's TTL is the preset's plus the dongle's hop, the preset's at the far end.
    await call('setPreset', { preset: 'windows', which: 'hilink' });
    const marker = `cellport-hilink-${randomBytes(3).toString('hex')}`;
    const seen = captureUdp(marker, 'eth1');
    await seen.started;
    expect(await call<{ reply: number }>('udp', { host: TARGET, port: UDP_PORT, payload: marker, which: 'hilink' })).toEqual({ reply: 0 });
    expect(await seen.ttl).toBe(128);
    await call('closeUdp');
  }, 40_000);

  it('the server\'s check (a CONNECT tunnel, then an HTTP GET to the echo) gets the echo\'s JSON as an HTTP response', async () => {
    await call('setPreset', { preset: 'macos' });
    expectPreset(await through('checkHttp'), 'macos');
  });

  it('plain HTTP forwarded through the port\'s pool leaves with the preset too', async () => {
    await call('setPreset', { preset: 'windows' });
    expectPreset(await through('plainGet'), 'windows');
  });

  it('a changed preset applies to the next connection; back to native, the Linux SYN again', async () => {
    await call('setPreset', { preset: 'ios' });
    expectPreset(await through(), 'ios');
    await call('setPreset', { preset: 'windows' });
    expectPreset(await through(), 'windows');
    await call('setPreset', { preset: null });
    expect((await through()).p0f.signature).toMatch(/^4:64\+0:0:1460:mss\*44,\d+:mss,sok,ts,nop,ws:/);
  });

  it('SOCKS5 UDP datagrams leave with the preset\'s TTL (the port\'s datagrams, not the host\'s 64)', async () => {
    for (const [preset, ttl] of [['windows', 128], [null, 64], ['ios', 64]] as const) {
      await call('setPreset', { preset });
      const marker = `cellport-${preset ?? 'native'}-${randomBytes(3).toString('hex')}`;
      const seen = captureUdp(marker);
      await seen.started;
      expect(await call<{ reply: number }>('udp', { host: TARGET, port: UDP_PORT, payload: marker })).toEqual({ reply: 0 });
      expect(await seen.ttl).toBe(ttl);
      await call('closeUdp');
    }
    // IPv6: the hop limit the same way.
    for (const [preset, hops] of [['windows', 128], ['android', 64]] as const) {
      await call('setPreset', { preset, which: 'v6' });
      const marker = `cellport-v6-${preset}-${randomBytes(3).toString('hex')}`;
      const seen = captureUdp(marker);
      await seen.started;
      expect(await call<{ reply: number }>('udp', { host: TARGET6, port: UDP_PORT, payload: marker, which: 'v6' })).toEqual({ reply: 0 });
      expect(await seen.ttl).toBe(hops);
      await call('closeUdp');
    }
  }, 30_000);

  it('a detached rewrite fails closed: no native SYN reaches the far end; the agent\'s check attaches it again', async () => {
    await call('setPreset', { preset: 'macos' });
    expectPreset(await through(), 'macos');
    // The rewrite goes from the modem's interface: the socket's SYN (Linux's layout, TTL 1) meets the check after
    // it, which drops it, so the connection times out rather than open with a Linux SYN.
    await call('breakRewrite', { egress: EGRESS });
    const before = syns.length;
    expect((await call<Check>('check', { host: TARGET, port: ECHO_PORT })).status).toBe(504);
    // The agent's own check (the heartbeat runs it) puts the program back; then the far end sees the preset again,
    // and nothing else since the break.
    await call('verify');
    await call('setPreset', { preset: 'android' });
    expectPreset(await through(), 'android');
    expect(syns.slice(before).map((s) => s.label)).toEqual([FINGERPRINT_PRESETS.android.p0f.label]);
  }, 30_000);

  it('with the rewrite and its check both gone, the socket\'s TTL of 1 still keeps the SYN from the far end (the modem\'s router drops it)', async () => {
    await call('setPreset', { preset: 'windows', which: 'hilink' });
    const ok = await call<Check>('check', { host: TARGET, port: HILINK_ECHO_PORT, which: 'hilink' });
    expect(ok.status, ok.body).toBe(200);
    await call('breakRewrite', { egress: HILINK_EGRESS, check: true });
    // The SYN leaves the host unrewritten, with TTL 1: the HiLink's router (the first hop) drops it and says so, and
    // the kernel ends the connect at once (EHOSTUNREACH): the proxy could not reach the target, 502.
    const before = await timeExceeded(NS.router);
    expect((await call<Check>('check', { host: TARGET, port: HILINK_ECHO_PORT, which: 'hilink' })).status).toBe(502);
    // The positive marker: the router answered the SYNs with "time exceeded", so they reached it and went no further.
    expect(await timeExceeded(NS.router)).toBeGreaterThan(before);
    await call('verify');
    await call('setPreset', { preset: 'ios', which: 'hilink' });
    const back = await call<Check>('check', { host: TARGET, port: HILINK_ECHO_PORT, which: 'hilink' });
    expect(back.status, back.body).toBe(200);
    expectPreset(fingerprintEchoResultSchema.parse(back.result), 'ios', '10.233.0.1');
  }, 30_000);

  it('a program that cannot be attached again: the ports refuse with the reason, then work once it can be', async () => {
    await call('setPreset', { preset: 'ios' });
    expectPreset(await through(), 'ios');
    await call('spoilProgram', { on: true });
    try {
      await call('breakRewrite', { egress: EGRESS });
      await call('verify');
      const refused = await call<Check>('check', { host: TARGET, port: ECHO_PORT });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatch(/fingerprint preset cannot be applied/);
    } finally {
      await call('spoilProgram', { on: false });
    }
    // Set up anew on the next connection: the preset again.
    expectPreset(await through(), 'ios');
  }, 30_000);

  it('an egress program that cannot be attached fails closed: the port refuses with the reason, no SYN leaves', async () => {
    await call('startSpoiled', { egress: EGRESS });
    await call('setPreset', { preset: 'ios', which: 'spoiled' });
    const before = syns.length;
    const refused = await call<Check>('check', { host: TARGET, port: ECHO_PORT, which: 'spoiled' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatch(/fingerprint preset cannot be applied/);
    const problems = await call<Record<string, string>>('problems', { which: 'spoiled' });
    expect(problems['861234567890013/ios']).toMatch(/ios preset could not be set up on this host: .*tc/);
    // Android through the first modem goes through: the far end listens, and saw only that SYN since.
    await call('setPreset', { preset: 'android' });
    expectPreset(await through(), 'android');
    expect(syns.slice(before).map((s) => s.label)).toEqual([FINGERPRINT_PRESETS.android.p0f.label]);
  }, 30_000);

  it('a simulated modem (a loopback egress, as the demo\'s) applies presets to targets on this machine too', async () => {
    // The demo's echo runs on this machine: here on the agent namespace's 127.0.0.1, p0f capturing on every interface.
    const local: typeof syns = [];
    await startIn(NS.agent, [process.execPath, '--import', 'tsx', echoMain, '--host', '127.0.0.1', '--port', String(ECHO_PORT + 1), '--iface', 'any', '--log-syns'],
      (m) => { if (m.syn) local.push(m.syn as never); }, (m) => m.msg === 'Fingerprint echo listening');
    await call('startSimulated', { egress: '127.0.0.9' });
    for (const preset of ['windows', 'ios'] as const) {
      await call('setPreset', { preset, which: 'simulated' });
      const answer = await call<Check>('check', { host: '127.0.0.1', port: ECHO_PORT + 1, which: 'simulated' });
      expect(answer.status, answer.body).toBe(200);
      // The echo sees the simulated modem's own address, as a site sees a real modem's.
      expectPreset(fingerprintEchoResultSchema.parse(answer.result), preset, /^127\.0\.0\.9$/);
    }
  }, 40_000);

  it('a SYN that skipped its rewrite is dropped by the kernel, not sent native (Windows)', async () => {
    await call('setPreset', { preset: 'windows' });
    expectPreset(await through(), 'windows');
    await call('breakRewrite', { egress: EGRESS });
    const before = syns.length;
    const answer = await call<Check>('check', { host: TARGET, port: ECHO_PORT });
    expect(answer.status).toBe(504);
    await call('verify');
    await call('setPreset', { preset: 'android' });
    expectPreset(await through(), 'android');
    expect(syns.slice(before).map((s) => s.label)).toEqual([FINGERPRINT_PRESETS.android.p0f.label]);
  }, 30_000);

  it('IPv6: a SYN that skipped its rewrite is dropped by the kernel too', async () => {
    await call('setPreset', { preset: 'windows', which: 'v6' });
    const ok = await call<Check>('check', { host: TARGET6, port: ECHO6_PORT, which: 'v6' });
    expect(ok.status, ok.body).toBe(200);
    expectPreset6(fingerprintEchoResultSchema.parse(ok.result), 'windows');
    await call('breakRewrite', { egress: EGRESS6 });
    const before = syns6.length;
    expect((await call<Check>('check', { host: TARGET6, port: ECHO6_PORT, which: 'v6' })).status).toBe(504);
    await call('verify');
    await call('setPreset', { preset: 'android', which: 'v6' });
    const after = await call<Check>('check', { host: TARGET6, port: ECHO6_PORT, which: 'v6' });
    expect(after.status, after.body).toBe(200);
    expect(syns6.slice(before).map((s) => s.label)).toEqual([FINGERPRINT_PRESETS.android.p0f.label]);
  }, 30_000);
});

/** The ICMP "time exceeded" messages a namespace has sent (/proc/net/snmp, Icmp: OutTimeExcds). */
async function timeExceeded(ns: string): Promise<number> {
  const [names, values] = (await exec('ip', ['netns', 'exec', ns, 'cat', '/proc/net/snmp'])).stdout.split('\n').filter((l) => l.startsWith('Icmp:')).map((l) => l.split(/\s+/));
  return Number(values![names!.indexOf('OutTimeExcds')]);
}

/** tcpdump in the target namespace: the TTL (IPv6: hop limit) of the first UDP datagram carrying `marker`. */
function captureUdp(marker: string, iface = 'eth0'): { started: Promise<void>; ttl: Promise<number> } {
  const child = spawn('ip', ['netns', 'exec', NS.target, 'tcpdump', '-i', iface, '-l', '-nn', '-v', '-A', `udp dst port ${UDP_PORT}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const started = new Promise<void>((resolve) => {
    createInterface({ input: child.stderr! }).on('line', (line) => { if (line.includes('listening on')) resolve(); });
  });
  const ttl = new Promise<number>((resolve) => {
    let lastTtl = 0;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const t = /\b(?:ttl|hlim) (\d+)\b/.exec(line);
      if (t) lastTtl = Number(t[1]);
      if (line.includes(marker)) {
        child.kill('SIGKILL');
        resolve(lastTtl);
      }
    });
  });
  return { started, ttl };
}
