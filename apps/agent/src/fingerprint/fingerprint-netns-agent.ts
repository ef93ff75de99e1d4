import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, isIPv6, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import { ModemProxy } from '../proxy/modem-proxy.js';
import { createTargetPolicy } from '../proxy/target-policy.js';
import { TrafficMeter } from '../proxy/traffic-meter.js';
import { createLogger } from '../runtime/log.js';
import { promisify } from 'node:util';
import { egressProgramObject, FingerprintHost } from './fingerprint-host.js';

const exec = promisify(execFile);

// Test support for fingerprint-presets.netns.test.ts: the agent's side, run inside the test's "agent" namespace
// (`ip netns exec <ns> node --import tsx fingerprint-netns-agent.ts`), so that the real agent code (FingerprintHost and
// a ModemProxy whose port carries a preset) sets up and uses that namespace's kernel. Commands come as JSON lines on
// stdin ({ id, op, args }), answers go as JSON lines on stdout ({ id, ok, result | error }); logs go to stderr.

const log = createLogger('warn', { component: 'fingerprint-netns-agent' }, (line) => process.stderr.write(line));
const PORT = { id: 'p1', login: 'fp', password: 'fp-secret', whitelist: [], state: 'active' as const, expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
const AUTH = `Basic ${Buffer.from(`${PORT.login}:${PORT.password}`).toString('base64')}`;

let state: {
  host: FingerprintHost; proxy: ModemProxy; dataDir: string; simulated?: ModemProxy; more: Map<string, ModemProxy>;
  preference: number; spoiled?: { host: FingerprintHost; dataDir: string };
} | null = null;
const must = () => {
  if (!state) throw new Error('start first');
  return state;
};

async function start(args: { egress: string; preference: number; hops?: number }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'cellport-fp-'));
  const host = new FingerprintHost({ log, dataDir, filterPreference: args.preference, verifyEveryMs: Infinity, retryAfterMs: 0 });
  await host.cleanUp();
  const proxy = new ModemProxy({
    imei: '861234567890009', listenHost: '127.0.0.1', httpPort: 0, socksPort: 0, egress: args.egress,
    policy: createTargetPolicy({}), meter: new TrafficMeter(), log,
    fingerprint: host.forModem('861234567890009', args.hops ?? 0),
    // A SYN the kernel drops is a connect timeout: short here, and shorter than the client's handshake timeout.
    limits: { connectTimeoutMs: 3000 },
  });
  await proxy.start();
  proxy.setPorts([PORT]);
  state = { host, proxy, dataDir, more: new Map(), preference: args.preference };
  return proxy.listeningPorts;
}

/** A second modem, simulated as the demo's are: its egress a loopback address, its targets on this machine. */
async function startSimulated(args: { egress: string }) {
  const { host } = must();
  const proxy = new ModemProxy({
    imei: '861234567890010', listenHost: '127.0.0.1', httpPort: 0, socksPort: 0, egress: args.egress,
    policy: createTargetPolicy({ allowLoopback: true, loopbackEgress: true }), meter: new TrafficMeter(), log,
    fingerprint: host.forModem('861234567890010', 0), limits: { connectTimeoutMs: 3000 },
  });
  await proxy.start();
  proxy.setPorts([PORT]);
  must().simulated = proxy;
  return null;
}

/** The IMEIs of the further modems, by the name the test calls them. */
const IMEIS: Record<string, string> = { v6: '861234567890011', hilink: '861234567890012' };

/**
 * A further modem: `v6`, whose egress is IPv6 (its targets are IPv6: the policy resolves by the egress's family), or
 * `hilink`, behind a router that NATs it (as a HiLink dongle does), so `hops` after the host.
 */
async function startModem(args: { which: string; egress: string; hops?: number }) {
  const { host, more } = must();
  const imei = IMEIS[args.which];
  if (!imei) throw new Error(`no modem called ${args.which}`);
  const proxy = new ModemProxy({
    imei, listenHost: '127.0.0.1', httpPort: 0, socksPort: 0, egress: args.egress,
    policy: createTargetPolicy({}), meter: new TrafficMeter(), log,
    fingerprint: host.forModem(imei, args.hops ?? 0), limits: { connectTimeoutMs: 3000 },
  });
  await proxy.start();
  proxy.setPorts([PORT]);
  more.set(args.which, proxy);
  return null;
}

/**
 * A modem of a second FingerprintHost whose egress program object is spoiled before its first use (not an eBPF
 * object): it cannot be attached, so its preset ports must refuse with the reason (called `spoiled`). Its own interface
 * (`device`), so the first host's programs there do not serve it.
 */
async function startSpoiled(args: { egress: string }) {
  const s = must();
  const dataDir = await mkdtemp(join(tmpdir(), 'cellport-fp-'));
  await mkdir(join(dataDir, 'fingerprint'), { recursive: true });
  await writeFile(egressProgramObject(dataDir), 'not an eBPF object\n');
  const host = new FingerprintHost({ log, dataDir, filterPreference: s.preference + 2 });
  s.spoiled = { host, dataDir };
  const proxy = new ModemProxy({
    imei: '861234567890013', listenHost: '127.0.0.1', httpPort: 0, socksPort: 0, egress: args.egress,
    policy: createTargetPolicy({}), meter: new TrafficMeter(), log,
    fingerprint: host.forModem('861234567890013', 0), limits: { connectTimeoutMs: 3000 },
  });
  await proxy.start();
  proxy.setPorts([PORT]);
  s.more.set('spoiled', proxy);
  return null;
}

const proxyOf = (which?: string) => (which === 'simulated' ? must().simulated! : which ? must().more.get(which)! : must().proxy);
/** host:port as a request line writes it (an IPv6 literal in brackets). */
const authority = (host: string, port: number) => `${isIPv6(host) ? `[${host}]` : host}:${port}`;
/** A SOCKS5 address: ATYP 1 and four bytes, or ATYP 4 and sixteen. */
function socksAddress(host: string, port: number): Buffer {
  const portBytes = [port >> 8, port & 0xff];
  if (!isIPv6(host)) return Buffer.from([1, ...host.split('.').map(Number), ...portBytes]);
  const groups = new URL(`http://[${host}]/`).hostname.slice(1, -1).split(':');
  const full = groups.flatMap((g) => (g === '' ? Array.from({ length: 8 - groups.filter(Boolean).length }, () => '0') : [g])).slice(0, 8);
  return Buffer.from([4, ...full.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]), ...portBytes]);
}

function setPreset(args: { preset: FingerprintPresetId | null; which?: string }) {
  proxyOf(args.which).setPorts([{ ...PORT, ...(args.preset ? { fingerprint: args.preset } : {}) }]);
  return null;
}

/** A CONNECT through the port's HTTP proxy to the echo: the proxy's status and, on 200, the echo's answer. */
async function check(args: { host: string; port: number; which?: string }) {
  const socket = connect({ host: '127.0.0.1', port: proxyOf(args.which).listeningPorts!.http });
  await once(socket, 'connect');
  const target = authority(args.host, args.port);
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${AUTH}\r\n\r\n`);
  let data = '';
  socket.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no answer through the proxy: ${JSON.stringify(data)}`)); }, 20_000);
    const done = (value: unknown) => { clearTimeout(timer); socket.destroy(); resolve(value); };
    socket.on('data', (chunk: string) => {
      data += chunk;
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = Number(data.split(' ')[1]);
      const rest = data.slice(end + 4);
      if (status !== 200) {
        if (/\n$/.test(rest) || rest.length > 0) done({ status, body: rest.trim() });
        return;
      }
      if (rest.includes('\n')) done({ status, result: JSON.parse(rest.slice(0, rest.indexOf('\n'))) });
    });
    socket.on('end', () => done({ status: Number(data.split(' ')[1]) || 0, body: data }));
    socket.on('error', (err) => { clearTimeout(timer); reject(err); });
  });
}

/** The server's "what a site sees" way: a CONNECT tunnel, then an HTTP GET on it; the echo answers HTTP. */
async function checkHttp(args: { host: string; port: number }) {
  const socket = connect({ host: '127.0.0.1', port: must().proxy.listeningPorts!.http });
  await once(socket, 'connect');
  socket.write(`CONNECT ${args.host}:${args.port} HTTP/1.1\r\nHost: ${args.host}:${args.port}\r\nProxy-Authorization: ${AUTH}\r\n\r\n`);
  let sentGet = false;
  socket.on('data', (chunk: Buffer) => {
    if (sentGet || !chunk.toString('latin1').includes('\r\n\r\n')) return;
    sentGet = true;
    socket.write(`GET / HTTP/1.1\r\nHost: ${args.host}:${args.port}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
  });
  const text = await readAll(socket, 20_000);
  const answer = text.slice(text.indexOf('\r\n\r\n') + 4);
  const status = Number(answer.split(' ')[1]);
  return { status, result: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) };
}

/** A plain HTTP GET through the port (the forwarding pool, not a tunnel): the echo answers it as HTTP. */
async function plainGet(args: { host: string; port: number }) {
  const socket = connect({ host: '127.0.0.1', port: must().proxy.listeningPorts!.http });
  await once(socket, 'connect');
  socket.write(`GET http://${args.host}:${args.port}/ HTTP/1.1\r\nHost: ${args.host}:${args.port}\r\nProxy-Authorization: ${AUTH}\r\nConnection: close\r\n\r\n`);
  const text = await readAll(socket, 20_000);
  const status = Number(text.split(' ')[1]);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4).trim();
  return status === 200 ? { status, result: JSON.parse(body) } : { status, body };
}

function readAll(socket: Socket, ms: number): Promise<string> {
  let data = '';
  socket.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { socket.destroy(); reject(new Error('no end')); }, ms);
    socket.on('data', (c: string) => { data += c; });
    socket.on('end', () => { clearTimeout(timer); resolve(data); });
    socket.on('error', (err) => { clearTimeout(timer); reject(err); });
  });
}

/** A SOCKS5 CONNECT (no-auth refused: login and password) to the echo: its reply code and the echo's answer. */
async function socksCheck(args: { host: string; port: number; which?: string }) {
  const socket = connect({ host: '127.0.0.1', port: proxyOf(args.which).listeningPorts!.socks });
  await once(socket, 'connect');
  const reader = bytes(socket);
  socket.write(Buffer.from([5, 1, 2]));
  await reader(2);
  socket.write(Buffer.concat([Buffer.from([1, PORT.login.length]), Buffer.from(PORT.login), Buffer.from([PORT.password.length]), Buffer.from(PORT.password)]));
  await reader(2);
  socket.write(Buffer.concat([Buffer.from([5, 1, 0]), socksAddress(args.host, args.port)]));
  const reply = await reader(4);
  await reader(reply[3] === 4 ? 18 : 6);
  if (reply[1] !== 0) { socket.destroy(); return { reply: reply[1] }; }
  const line = (await reader(-1)).toString();
  socket.destroy();
  return { reply: 0, result: JSON.parse(line) };
}

/** Reads exactly n bytes (n = -1: up to the first newline) from a socket. */
function bytes(socket: Socket): (n: number) => Promise<Buffer> {
  let buf = Buffer.alloc(0);
  let want: { n: number; resolve(b: Buffer): void } | null = null;
  const pump = () => {
    if (!want) return;
    const end = want.n < 0 ? buf.indexOf(10) + 1 : buf.length >= want.n ? want.n : 0;
    if (end <= 0) return;
    const out = buf.subarray(0, end);
    buf = buf.subarray(end);
    const w = want;
    want = null;
    w.resolve(out);
  };
  socket.on('data', (c: Buffer) => { buf = Buffer.concat([buf, c]); pump(); });
  return (n) => new Promise((resolve) => { want = { n, resolve }; pump(); });
}

/** One datagram to host:port through a SOCKS5 UDP association of the port; resolves once the relay took it. */
async function udp(args: { host: string; port: number; payload: string; which?: string }) {
  const control = connect({ host: '127.0.0.1', port: proxyOf(args.which).listeningPorts!.socks });
  await once(control, 'connect');
  const reader = bytes(control);
  control.write(Buffer.from([5, 1, 2]));
  await reader(2);
  control.write(Buffer.concat([Buffer.from([1, PORT.login.length]), Buffer.from(PORT.login), Buffer.from([PORT.password.length]), Buffer.from(PORT.password)]));
  await reader(2);
  control.write(Buffer.from([5, 3, 0, 1, 0, 0, 0, 0, 0, 0]));
  const reply = await reader(10);
  if (reply[1] !== 0) { control.destroy(); return { reply: reply[1] }; }
  const relay = { address: [...reply.subarray(4, 8)].join('.'), port: reply.readUInt16BE(8) };
  const client = createSocket('udp4');
  client.bind(0, '127.0.0.1');
  await once(client, 'listening');
  const header = Buffer.concat([Buffer.from([0, 0, 0]), socksAddress(args.host, args.port)]);
  client.send(Buffer.concat([header, Buffer.from(args.payload)]), relay.port, relay.address);
  // The control connection stays open a moment so the association lives until the datagram left; the test waits
  // for the target to see it, then the next command closes it.
  pendingUdp.push(() => { client.close(); control.destroy(); });
  return { reply: 0 };
}
const pendingUdp: Array<() => void> = [];
/** The egress program's object as built, while spoilProgram has it spoiled. */
let spoiledBytes: Buffer | null = null;

async function stop() {
  for (const close of pendingUdp.splice(0)) close();
  if (!state) return;
  const { host, proxy, dataDir, simulated, more, spoiled } = state;
  state = null;
  await simulated?.close();
  for (const modem of more.values()) await modem.close();
  if (spoiled) {
    await spoiled.host.close();
    await rm(spoiled.dataDir, { recursive: true, force: true });
  }
  await proxy.close();
  await host.close();
  await rm(dataDir, { recursive: true, force: true });
}

const ops: Record<string, (args: never) => unknown> = {
  start,
  startSimulated,
  startModem,
  startSpoiled,
  setPreset,
  check,
  checkHttp,
  plainGet,
  socksCheck,
  udp,
  closeUdp: () => { for (const close of pendingUdp.splice(0)) close(); return null; },
  /**
   * Deletes the egress program of a modem's interface (its check stays behind it; `check`: that too): that
   * interface's preset SYNs are no longer rewritten.
   */
  breakRewrite: async (args: { egress: string; check?: boolean }) => {
    const device = must().host.deviceOf(args.egress);
    if (!device) throw new Error(`no preset set up on ${args.egress}`);
    const { preference } = must().host;
    for (const pref of args.check ? [preference, preference + 1] : [preference]) await exec('tc', ['filter', 'del', 'dev', device, 'egress', 'pref', String(pref)]);
    return null;
  },
  /**
   * Spoils the built egress program (`on`), or puts it back (`off`): the agent's next attach of it fails, or works.
   */
  spoilProgram: async (args: { on: boolean }) => {
    const path = egressProgramObject(must().dataDir);
    if (args.on) {
      spoiledBytes ??= await readFile(path);
      await writeFile(path, 'not an eBPF object\n');
    } else if (spoiledBytes) {
      await writeFile(path, spoiledBytes);
      spoiledBytes = null;
    }
    return null;
  },
  /** The agent's own check of its programs (the heartbeat runs it): a missing one is attached again. */
  verify: async () => { await must().host.verify(); return null; },
  problems: (args?: { which?: string }) => Object.fromEntries((args?.which === 'spoiled' ? must().spoiled!.host : must().host).problems()),
  stop,
};

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const { id, op, args } = JSON.parse(line) as { id: number; op: string; args: unknown };
  const fn = ops[op];
  void Promise.resolve().then(() => (fn ? fn(args as never) : Promise.reject(new Error(`unknown op ${op}`)))).then(
    (result) => process.stdout.write(`${JSON.stringify({ id, ok: true, result: result ?? null })}\n`),
    (err: unknown) => process.stdout.write(`${JSON.stringify({ id, ok: false, error: (err as Error).message })}\n`),
  );
});
lines.on('close', () => void stop().finally(() => process.exit(0)));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
