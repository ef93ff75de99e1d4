import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../drivers/modem-backend.js';

// The agent's real policy routing in network namespaces (issue 15, item 7). One namespace per modem, joined to the
// agent's namespace by a veth pair; each modem namespace forwards to an "internet" namespace and SNATs to its
// "public" address (198.51.100.x), which a rotation rewrites; the internet namespace runs an IP echo. The agent's
// namespace also has the host's own uplink as its default route, the way a modem's traffic could leak. The agent's
// code (policy routing, HostModems with the HiLink driver, one ModemProxy per modem) runs inside its namespace in a
// child process (netns-test-agent.ts). Needs root, `ip netns` and nft; skipped by name elsewhere.

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const helper = fileURLToPath(new URL('./netns-test-agent.ts', import.meta.url));

/** Tried once for real: root, network namespaces, and nftables' NAT inside one. */
function canMakeNamespaces(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = `cp-probe-${process.pid}-${randomBytes(3).toString('hex')}`;
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'ignore' });
  } catch {
    return false;
  }
  try {
    execFileSync('ip', ['netns', 'exec', probe, 'nft', 'add', 'table', 'ip', 'nat'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    try { execFileSync('ip', ['netns', 'del', probe], { stdio: 'ignore' }); } catch { /* gone already */ }
  }
}
const available = canMakeNamespaces();

const id = `${process.pid.toString(36)}-${randomBytes(2).toString('hex')}`;
const NS = { agent: `cp-agent-${id}`, m1: `cp-m1-${id}`, m2: `cp-m2-${id}`, inet: `cp-inet-${id}` };
// An ordinary public address: customers' traffic to documentation ranges (203.0.113.0/24…) is refused.
const ECHO = 'http://100.128.0.10:8080/ip';
const IMEI_1 = '861234567890001';
const IMEI_2 = '861234567890002';
const MODEMS = [
  { n: 1, imei: IMEI_1, lan: '192.168.8', wan: '10.201.1', publicIp: '198.51.100.11', nextIps: ['198.51.100.13'], block: '198.51.100.0/28' },
  { n: 2, imei: IMEI_2, lan: '192.168.18', wan: '10.201.2', publicIp: '198.51.100.21', nextIps: [], block: '198.51.100.16/28' },
] as const;

const ip = (...args: string[]) => exec('ip', args);

/** Namespaces left by a run that was killed before its afterAll (its process is gone): removed, so none pile up. */
async function removeLeftovers(): Promise<void> {
  const { stdout } = await ip('-j', 'netns', 'list');
  for (const { name } of JSON.parse(stdout || '[]') as Array<{ name: string }>) {
    const pid = /^cp-(?:agent|m1|m2|inet)-([0-9a-z]+)-[0-9a-f]{4}$/.exec(name)?.[1];
    if (!pid) continue;
    try {
      process.kill(Number.parseInt(pid, 36), 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') await ip('netns', 'del', name).catch(() => undefined);
    }
  }
}
const inNs = (ns: string, ...args: string[]) => exec('ip', ['netns', 'exec', ns, ...args]);
async function ipJson<T>(ns: string, ...args: string[]): Promise<T[]> {
  const { stdout } = await ip('-n', ns, '-j', ...args);
  return JSON.parse(stdout || '[]') as T[];
}

const children: ChildProcess[] = [];
const echoSeen: string[] = [];
let call: <T>(op: string, args?: object) => Promise<T>;

/** Starts `command` in a namespace; resolves once it prints its first JSON line ({ ready: true }). Later lines go to `onLine`. */
async function startIn(ns: string, command: string[], onLine: (message: Record<string, unknown>) => void): Promise<ChildProcess> {
  const child = spawn('ip', ['netns', 'exec', ns, ...command], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${command.join(' ').slice(0, 80)} in ${ns} exited (${code}) before it was ready`)));
    child.once('error', reject);
    lines.on('line', (line) => {
      const message = JSON.parse(line) as Record<string, unknown>;
      if (message.ready) resolve();
      else onLine(message);
    });
  });
  return child;
}

/** Runs `ip -n <ns> -batch -` over `lines` (one ip command each): one process per namespace, not one per line. */
function ipBatch(ns: string, lines: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile('ip', ['-n', ns, '-batch', '-'], (err, _out, stderr) => (err ? reject(new Error(`ip -n ${ns} -batch: ${stderr || err.message}`)) : resolve()));
    child.stdin!.end(`${lines.join('\n')}\n`);
  });
}

/** The namespaces' links, addresses, routes and NAT (the namespaces exist already). */
async function setUpNetwork(): Promise<void> {
  // The agent: the host's own uplink (its default route, where a modem's traffic must never go), and one link per
  // modem to the dongle's LAN, where the agent's mdmN has .100 and the dongle .1 (its gateway and, on a HiLink, its web page).
  await ipBatch(NS.agent, [
    'link set lo up',
    `link add wan type veth peer name host netns ${NS.inet}`,
    'addr add 10.200.0.2/24 dev wan', 'link set wan up', 'route add default via 10.200.0.1',
    ...MODEMS.flatMap((m) => [
      `link add mdm${m.n} type veth peer name lan netns ${m.n === 1 ? NS.m1 : NS.m2}`,
      `addr add ${m.lan}.100/24 dev mdm${m.n}`, `link set mdm${m.n} up`,
    ]),
  ]);
  // Each modem: its LAN, and the mobile side forwarded to the internet namespace, translated to its public address.
  await Promise.all(MODEMS.map(async (m) => {
    const ns = m.n === 1 ? NS.m1 : NS.m2;
    await ipBatch(ns, [
      'link set lo up', `addr add ${m.lan}.1/24 dev lan`, 'link set lan up',
      `link add wan type veth peer name m${m.n} netns ${NS.inet}`,
      `addr add ${m.wan}.2/30 dev wan`, 'link set wan up', `route add default via ${m.wan}.1`,
    ]);
    await inNs(ns, 'sysctl', '-qw', 'net.ipv4.ip_forward=1');
    await inNs(ns, 'nft', `add table ip nat; add chain ip nat post { type nat hook postrouting priority srcnat; }; add rule ip nat post oifname wan snat to ${m.publicIp}`);
  }));
  // The internet: the echo's address, and the way back to each modem's public block and to the host's uplink.
  await ipBatch(NS.inet, [
    'link set lo up', 'addr add 100.128.0.10/32 dev lo',
    'addr add 10.200.0.1/24 dev host', 'link set host up', 'route add 192.168.0.0/16 via 10.200.0.2',
    ...MODEMS.flatMap((m) => [`addr add ${m.wan}.1/30 dev m${m.n}`, `link set m${m.n} up`, `route add ${m.block} via ${m.wan}.2`]),
  ]);
}

describe.skipIf(!available)(`policy routing in network namespaces${available ? '' : ' (skipped: needs root and network namespaces, ip netns and nft)'}`, () => {
  beforeAll(async () => {
    await removeLeftovers();
    for (const ns of Object.values(NS)) await ip('netns', 'add', ns);
    // The agent's helper starts (a few seconds for node and tsx) while the network is set up.
    const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
    const agentReady = startIn(NS.agent, [process.execPath, '--import', 'tsx', helper], (m) => {
      const waiter = pending.get(m.id as number);
      pending.delete(m.id as number);
      if (m.ok) waiter?.resolve(m.result);
      else waiter?.reject(new Error(String(m.error)));
    });
    agentReady.catch(() => undefined); // awaited below, after the network
    await setUpNetwork();
    // The internet's IP echo: answers the address it sees, and tells the test every one it saw.
    const echo = `require('node:http').createServer((q, r) => {
      const a = q.socket.remoteAddress.replace(/^::ffff:/, '');
      process.stdout.write(JSON.stringify({ seen: a }) + '\\n');
      r.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end(a + '\\n');
    }).listen(8080, '100.128.0.10', () => process.stdout.write('{"ready":true}\\n'));`;
    await startIn(NS.inet, [process.execPath, '-e', echo], (m) => echoSeen.push(String(m.seen)));
    const agent = await agentReady;
    agent.once('exit', (code) => { for (const w of pending.values()) w.reject(new Error(`the agent's helper exited (${code})`)); });
    let next = 1;
    call = <T>(op: string, args: object = {}) => new Promise<T>((resolve, reject) => {
      const n = next++;
      pending.set(n, { resolve: resolve as (v: unknown) => void, reject });
      agent.stdin!.write(`${JSON.stringify({ id: n, op, args })}\n`);
    });
  });

  afterAll(async () => {
    await Promise.all(children.map((child) => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    })));
    for (const ns of Object.values(NS)) await ip('netns', 'del', ns).catch(() => undefined);
  });

  it('without policy routing a modem\'s source address leaks out of the host\'s default route (what the rules prevent)', async () => {
    expect(await call<string>('direct', { url: ECHO, source: '192.168.8.100' })).toBe('192.168.8.100');
  });

  it('the agent sets up each modem\'s table, rule and blackhole, and measures each modem\'s public IP through it', async () => {
    const modems = await call<Array<{ imei: string; extIp: string | null; egress: string }>>('start', {
      echoUrl: ECHO, firstTable: 101,
      modems: MODEMS.map((m) => ({
        name: `slot-${m.n}`, imei: m.imei, egress: `mdm${m.n}`, gateway: `${m.lan}.1`, publicIp: m.publicIp, nextIps: m.nextIps,
        namespace: m.n === 1 ? NS.m1 : NS.m2,
        ...(m.n === 1 ? { readdress: { from: '192.168.8.100/24', to: '192.168.8.101/24' } } : {}),
      })),
    });
    expect(modems).toEqual([
      { imei: IMEI_1, extIp: '198.51.100.11', egress: '192.168.8.100' },
      { imei: IMEI_2, extIp: '198.51.100.21', egress: '192.168.18.100' },
    ]);
    const rules = await ipJson<{ priority: number; src: string; table: string }>(NS.agent, '-4', 'rule', 'show');
    expect(rules).toEqual(expect.arrayContaining([
      { priority: 1001, src: '192.168.8.100', table: '101' },
      { priority: 1002, src: '192.168.18.100', table: '102' },
    ]));
    expect(await ipJson(NS.agent, '-4', 'route', 'show', 'table', '101')).toEqual([
      expect.objectContaining({ dst: 'default', gateway: '192.168.8.1', dev: 'mdm1' }),
      expect.objectContaining({ type: 'blackhole', dst: 'default', metric: 4_000_000_000 }),
    ]);
    // Applied again, nothing is missing: no command runs.
    expect(await call('reapply')).toEqual([[], []]);
    expect((await ipJson<{ priority: number }>(NS.agent, '-4', 'rule', 'show')).filter((r) => r.priority === 1001)).toHaveLength(1);
  });

  it('each modem\'s proxy port reaches the internet with that modem\'s public address', async () => {
    expect(await call('viaProxy', { imei: IMEI_1, url: ECHO })).toEqual({ status: 200, body: '198.51.100.11' });
    expect(await call('viaProxy', { imei: IMEI_2, url: ECHO })).toEqual({ status: 200, body: '198.51.100.21' });
  });

  it('a rotation gives modem 1 a new public address (and its interface a new one): the rule follows, the proxy shows it', async () => {
    expect(await call('rotate', { imei: IMEI_1 })).toEqual({ extIp: '198.51.100.13', egress: '192.168.8.101' });
    const rules = await ipJson<{ priority: number; src: string; table: string }>(NS.agent, '-4', 'rule', 'show');
    expect(rules.filter((r) => r.priority === 1001)).toEqual([{ priority: 1001, src: '192.168.8.101', table: '101' }]);
    expect(await call('viaProxy', { imei: IMEI_1, url: ECHO })).toEqual({ status: 200, body: '198.51.100.13' });
    expect(await call('viaProxy', { imei: IMEI_2, url: ECHO })).toEqual({ status: 200, body: '198.51.100.21' });
  });

  it('a modem whose link is down gets nothing out, not even through the host\'s default route; back up, it serves again', async () => {
    await ip('-n', NS.agent, 'link', 'set', 'mdm1', 'down');
    const seenBefore = echoSeen.length;
    const through = await call<{ status: number; body: string }>('viaProxy', { imei: IMEI_1, url: ECHO });
    expect(through.status).not.toBe(200);
    await expect(call('direct', { url: ECHO, source: '192.168.8.101' })).rejects.toThrow();
    // The other modem is not affected; and the echo saw only its request.
    expect(await call('viaProxy', { imei: IMEI_2, url: ECHO })).toEqual({ status: 200, body: '198.51.100.21' });
    expect(echoSeen.slice(seenBefore)).toEqual(['198.51.100.21']);

    // The link is back: the kernel dropped the modem's route with it; the agent's next look puts it back.
    await ip('-n', NS.agent, 'link', 'set', 'mdm1', 'up');
    // "Up" is the kernel's word, not the command's: the carrier comes back through the kernel's link watch, later
    // under load (the stress run caught a discovery that ran first and found the link still without carrier).
    await waitFor(async () => (await ipJson<{ operstate: string }>(NS.agent, 'link', 'show', 'mdm1'))[0]?.operstate === 'UP',
      10_000, 20, () => 'mdm1 has no carrier 10 s after `ip link set mdm1 up`');
    await call('discover');
    expect(await call('viaProxy', { imei: IMEI_1, url: ECHO })).toEqual({ status: 200, body: '198.51.100.13' });
  });
});
