import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createConnection, createServer as createNetServer, type AddressInfo, type Socket as NetSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Server as IoServer, type Socket as IoSocket } from 'socket.io';
import { SocksClient } from 'socks';
import { ProxyAgent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  HOST_KEY_REFUSED, HOST_PROTOCOL, type DesiredModem, type DesiredState, type PortAccess, type RotateReply, type TrafficReport,
} from '@cellport/shared/schemas/host-protocol';
import { createTargetPolicy } from '../proxy/target-policy.js';
import { LoopbackPool, SimulatedModemDriver } from './drivers/simulated.js';
import { HostAgent } from './host-agent.js';
import { createLogger } from './log.js';
import { freePort } from '../proxy/test-support.js';

// The agent's runtime against a peer that speaks the host protocol (a socket.io server playing the Cellport server),
// with real proxy sockets to a local site that answers with the address it sees.

const KEY = 'chk_testtesttesttesttesttesttest';
const far = () => new Date(Date.now() + 86_400_000).toISOString();

let site: HttpServer;
let sitePort: number;


/**
 * Waits (vi.waitFor, every 25 ms) for a condition the agent reaches by itself (a state applied, a clock passing) until
 * the probe gives a value; bounded, never a fixed sleep.
 */
const until = <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeout = 10_000) =>
  vi.waitFor(async () => {
    const value = await probe();
    if (value === undefined) throw new Error(`timed out waiting for ${what}`);
    return value;
  }, { timeout, interval: 25 });

beforeAll(async () => {
  site = createHttpServer((req, res) => res.end(req.socket.remoteAddress?.replace('::ffff:', '')));
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  sitePort = (site.address() as AddressInfo).port;
});
afterAll(() => { site.close(); });

/** A server side of the protocol: sends states, asks for rotations, records heartbeats and traffic. */
class FakeServer {
  readonly io: IoServer;
  readonly heartbeats: unknown[] = [];
  readonly reports: TrafficReport[] = [];
  readonly counted = new Set<string>();
  /** The next report is received but not acknowledged (a lost ack). */
  dropNextAck = false;
  refusals = 0;
  socket: IoSocket | null = null;
  url = '';
  constructor(public state: DesiredState) {
    const http = createHttpServer();
    this.io = new IoServer(http, { path: HOST_PROTOCOL.path });
    this.io.use((socket, next) => {
      if ((socket.handshake.auth as { key?: string }).key === KEY) return next();
      this.refusals++;
      next(new Error(HOST_KEY_REFUSED));
    });
    this.io.on('connection', (socket) => {
      this.socket = socket;
      socket.emit('state', this.state);
      socket.on('heartbeat', (hb: unknown) => this.heartbeats.push(hb));
      socket.on('traffic', (report: TrafficReport, ack: (a: unknown) => void) => {
        this.reports.push(report);
        if (this.dropNextAck) { this.dropNextAck = false; return; }
        const duplicate = this.counted.has(report.batchId);
        this.counted.add(report.batchId);
        ack({ batchId: report.batchId, accepted: duplicate ? 0 : report.samples.length, duplicate });
      });
    });
  }
  async listen(port = 0): Promise<void> {
    const http = this.io.httpServer as HttpServer;
    http.listen(port, '127.0.0.1');
    await once(http, 'listening');
    this.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  }
  push(state: DesiredState): void { this.state = state; this.socket?.emit('state', state); }
  async close(): Promise<void> { await new Promise<void>((r) => { void this.io.close(() => r()); }); }
}

function port(over: Partial<PortAccess> = {}): PortAccess {
  return { id: 'port-a', login: 'alice', password: 'secret-a', whitelist: [], state: 'active', expiresAt: far(), ...over };
}

async function modem(imei: string, extIp: string, ports: PortAccess[]): Promise<DesiredModem> {
  return { id: `m-${imei}`, imei, httpPort: await freePort(), socksPort: await freePort(), extIp, driver: 'simulated', isShared: false, ports };
}

const stateOf = (version: string, modems: DesiredModem[]): DesiredState =>
  ({ version, hostId: 'host-1', hostName: 'h1', generatedAt: new Date().toISOString(), modems });

/** Where a customer connects: a modem's numbers, or (decision 045) a port's own. */
type Address = { httpPort: number; socksPort: number };

async function viaHttp(m: Address, login: string, password: string, tunnel = false): Promise<{ status: number; body: string; error?: string }> {
  const dispatcher = new ProxyAgent({
    uri: `http://127.0.0.1:${m.httpPort}`, token: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`, proxyTunnel: tunnel,
  });
  try {
    const res = await request(`http://127.0.0.1:${sitePort}/`, { dispatcher });
    return { status: res.statusCode, body: await res.body.text() };
  } catch (err) {
    // A refused CONNECT surfaces as an error carrying the proxy's status.
    const status = Number(/\b(\d{3})\b/.exec(String((err as Error).message))?.[1] ?? 0);
    // The message too, so a failure that is no refusal says what it was.
    return { status, body: '', error: `${(err as Error).name}: ${(err as Error).message}` };
  } finally {
    await dispatcher.close();
  }
}

async function socksTunnel(m: Address, login: string, password: string): Promise<NetSocket> {
  const { socket } = await SocksClient.createConnection({
    proxy: { host: '127.0.0.1', port: m.socksPort, type: 5, userId: login, password },
    command: 'connect', destination: { host: '127.0.0.1', port: sitePort },
  });
  return socket;
}

/** What the site sees through a SOCKS tunnel. */
async function seenViaSocks(m: Address, login: string, password: string): Promise<string> {
  const socket = await socksTunnel(m, login, password);
  socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString().split('\r\n\r\n')[1] ?? '';
}

const dirs: string[] = [];
const running: HostAgent[] = [];
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((a) => a.stop()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function setup(state: DesiredState, dataDir?: string) {
  const server = new FakeServer(state);
  servers.push(server);
  await server.listen();
  const dir = dataDir ?? await mkdtemp(join(tmpdir(), 'agent-'));
  if (!dataDir) dirs.push(dir);
  const agent = startAgent(server.url, dir);
  await agent.start();
  return { server, agent, dir };
}

function startAgent(serverUrl: string, dir: string, key = KEY): HostAgent {
  const driver = new SimulatedModemDriver(new LoopbackPool(), 40);
  const agent = new HostAgent({
    serverUrl, key, dataDir: dir, listenHost: '127.0.0.1',
    policy: createTargetPolicy({ allowLoopback: true, allowPrivate: false, deniedCidrs: [] }),
    driverFor: () => driver, log: createLogger('silent'), agentVersion: 'test', reportSeconds: 3600, ackTimeoutMs: 500,
  });
  running.push(agent);
  return agent;
}

const serving = (agent: HostAgent, ...imeis: string[]) => () =>
  imeis.every((imei) => agent.snapshot().some((m) => m.imei === imei && m.state === 'online')) || undefined;

describe('host agent runtime', () => {
  it('serves the desired state: each modem sends from its own address, over HTTP and SOCKS5', async () => {
    const m1 = await modem('111', '127.0.7.1', [port()]);
    const m2 = await modem('222', '127.0.7.2', [port({ id: 'port-b', login: 'bob', password: 'secret-b' })]);
    const { server, agent } = await setup(stateOf('v1', [m1, m2]));
    await until(serving(agent, '111', '222'), 'both modems served');

    expect(await viaHttp(m1, 'alice', 'secret-a')).toEqual({ status: 200, body: '127.0.7.1' });
    expect(await viaHttp(m2, 'bob', 'secret-b', true)).toEqual({ status: 200, body: '127.0.7.2' });
    expect(await seenViaSocks(m2, 'bob', 'secret-b')).toBe('127.0.7.2');
    expect((await viaHttp(m1, 'bob', 'secret-b')).status).toBe(407);

    // Heartbeats report each modem's state and address.
    const hb = await until(() => server.heartbeats.find((h) => (h as { stateVersion: string }).stateVersion === 'v1'), 'a heartbeat');
    expect((hb as { modems: unknown[] }).modems).toEqual(expect.arrayContaining([
      expect.objectContaining({ imei: '111', state: 'online', extIp: '127.0.7.1' }),
      expect.objectContaining({ imei: '222', state: 'online', extIp: '127.0.7.2' }),
    ]));
  });

  it('applies a change at once: a suspended port cuts its open tunnel and refuses new connections', async () => {
    const m1 = await modem('111', '127.0.7.3', [port()]);
    const { server, agent } = await setup(stateOf('v1', [m1]));
    await until(serving(agent, '111'), 'the modem served');
    const tunnel = await socksTunnel(m1, 'alice', 'secret-a');
    const closed = once(tunnel, 'close');

    server.push(stateOf('v2', [{ ...m1, ports: [port({ state: 'suspended' })] }]));
    await closed;
    expect((await viaHttp(m1, 'alice', 'secret-a')).status).toBe(403);
  });

  it('rotates on command: statuses flow back, the next request shows the new IP, old tunnels close', async () => {
    const m1 = await modem('111', '127.0.7.4', [port()]);
    const { server, agent } = await setup(stateOf('v1', [m1]));
    await until(serving(agent, '111'), 'the modem served');
    const statuses: string[] = [];
    server.socket!.on('rotation-status', (s: { status: string }) => statuses.push(s.status));
    const tunnel = await socksTunnel(m1, 'alice', 'secret-a');
    const closed = once(tunnel, 'close');

    const reply = await server.socket!.timeout(10_000).emitWithAck('rotate', { commandId: 'c1', imei: '111' }) as RotateReply;
    expect(reply.ok).toBe(true);
    const extIp = (reply as { extIp: string }).extIp;
    expect(extIp).toMatch(/^127\.0\.\d+\.\d+$/);
    expect(extIp).not.toBe('127.0.7.4');
    expect(statuses).toEqual(['rotating', 'applying']);
    await closed;
    expect((await viaHttp(m1, 'alice', 'secret-a')).body).toBe(extIp);

    const unknown = await server.socket!.timeout(10_000).emitWithAck('rotate', { commandId: 'c2', imei: '999' }) as RotateReply;
    expect(unknown).toEqual({ ok: false, error: 'this host has no such modem' });
  });

  it('reports traffic per port in batches; a batch whose ack was lost is resent with the same id', async () => {
    const m1 = await modem('111', '127.0.7.5', [port()]);
    const { server, agent } = await setup(stateOf('v1', [m1]));
    await until(serving(agent, '111'), 'the modem served');
    await until(() => (server.socket?.connected ? true : undefined), 'the connection');
    expect((await viaHttp(m1, 'alice', 'secret-a')).status).toBe(200);

    server.dropNextAck = true;
    await agent.reportNow().catch(() => {});
    await until(() => server.reports[0], 'a report');
    expect(server.counted.size).toBe(0);
    const first = server.reports[0]!;
    expect(first.samples).toEqual([expect.objectContaining({ portId: 'port-a' })]);
    expect(BigInt(first.samples[0]!.bytesIn)).toBeGreaterThan(0n);

    await agent.reportNow();
    expect(server.reports[1]?.batchId).toBe(first.batchId);
    expect(server.counted).toEqual(new Set([first.batchId]));
  });

  it('keeps serving through a server outage and a restart, and enforces expiry by its own clock', async () => {
    const m1 = await modem('111', '127.0.7.6', [
      port(),
      port({ id: 'port-soon', login: 'carol', password: 'secret-c', expiresAt: new Date(Date.now() + 1500).toISOString() }),
    ]);
    const { server, agent, dir } = await setup(stateOf('v1', [m1]));
    await until(serving(agent, '111'), 'the modem served');
    const tunnel = await socksTunnel(m1, 'carol', 'secret-c');
    const cut = once(tunnel, 'close');
    await server.close();
    servers.splice(servers.indexOf(server), 1);

    // The server is gone: carol's port expires on the agent's clock, her tunnel is cut, new connections refused.
    await cut;
    expect((await viaHttp(m1, 'carol', 'secret-c')).status).toBe(403);
    expect((await viaHttp(m1, 'alice', 'secret-a')).body).toBe('127.0.7.6');

    // The agent restarts while the server is still down: it serves the state it kept.
    await agent.stop();
    running.splice(running.indexOf(agent), 1);
    const restarted = startAgent('http://127.0.0.1:1', dir);
    await restarted.start();
    await until(serving(restarted, '111'), 'the kept state served');
    expect((await viaHttp(m1, 'alice', 'secret-a')).body).toBe('127.0.7.6');
    expect((await viaHttp(m1, 'carol', 'secret-c')).status).toBe(403);
  });

  it('a replacement that swaps two modems\' ports keeps the customer on the same ports, sending from the new modem', async () => {
    // Decision 036, as a server before 045 does it (no PortAccess.listen): the port moves from 111 to the free 222 of
    // the same host, and the two modems swap their ports. The new modem comes first in the state, so it opens its new
    // ports while the old modem still held them before.
    const old = await modem('111', '127.0.7.9', [port()]);
    const free = await modem('222', '127.0.7.10', []);
    const { server, agent } = await setup(stateOf('v1', [old, free]));
    await until(serving(agent, '111', '222'), 'both modems served');
    expect(await viaHttp(old, 'alice', 'secret-a')).toEqual({ status: 200, body: '127.0.7.9' });

    server.push(stateOf('v2', [
      { ...free, httpPort: old.httpPort, socksPort: old.socksPort, ports: [port()] },
      { ...old, httpPort: free.httpPort, socksPort: free.socksPort, ports: [] },
    ]));
    // The heartbeat that ends the state's application.
    await until(() => server.heartbeats.find((h) => (h as { stateVersion: string }).stateVersion === 'v2'), 'the swap applied');
    expect(agent.snapshot().map((m) => [m.imei, m.state, m.problem ?? null]).sort())
      .toEqual([['111', 'online', null], ['222', 'online', null]]);
    // The customer's same address, over HTTP and SOCKS5, now leaves from the new modem.
    expect(await viaHttp(old, 'alice', 'secret-a')).toEqual({ status: 200, body: '127.0.7.10' });
    expect(await seenViaSocks(old, 'alice', 'secret-a')).toBe('127.0.7.10');
    expect((await viaHttp(free, 'alice', 'secret-a')).status).toBe(407);
  });

  it('a listening port already taken leaves that modem offline with the reason; the others serve', async () => {
    const blocker = createNetServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const taken = (blocker.address() as AddressInfo).port;
    try {
      const m1 = { ...(await modem('111', '127.0.7.7', [port()])), httpPort: taken };
      const m2 = await modem('222', '127.0.7.8', [port({ id: 'port-b', login: 'bob', password: 'secret-b' })]);
      const { agent } = await setup(stateOf('v1', [m1, m2]));
      await until(serving(agent, '222'), 'the free modem served');
      const offline = agent.snapshot().find((m) => m.imei === '111');
      expect(offline).toMatchObject({ state: 'offline' });
      expect(offline?.problem).toContain(String(taken));
      expect((await viaHttp(m2, 'bob', 'secret-b')).body).toBe('127.0.7.8');
    } finally {
      blocker.close();
    }
  });
});

describe('ports with listeners of their own (decision 045)', () => {
  const listen = async (): Promise<Address> => ({ httpPort: await freePort(), socksPort: await freePort() });
  /** Nothing listens on the address's HTTP port: a connection is refused. */
  const nothingAt = async (m: Address): Promise<string> => {
    const socket = createConnection({ host: '127.0.0.1', port: m.httpPort });
    const [err] = await once(socket, 'error').catch((e: unknown) => [e]) as [NodeJS.ErrnoException];
    return err.code ?? String(err);
  };
  const withListeners = (version: string, modems: DesiredModem[]): DesiredState => ({ ...stateOf(version, modems), portListeners: true });
  const applied = (server: FakeServer, version: string) =>
    until(() => server.heartbeats.find((h) => (h as { stateVersion: string }).stateVersion === version), `state ${version} applied`);

  it('co-tenants of a shared modem each have their own address, and a port reaches only its own', async () => {
    const [a, b] = [await listen(), await listen()];
    const shared = { ...(await modem('111', '127.0.8.1', [
      port({ listen: a }), port({ id: 'port-b', login: 'bob', password: 'secret-b', listen: b }),
    ])), isShared: true };
    const { agent } = await setup(withListeners('v1', [shared]));
    await until(serving(agent, '111'), 'the modem served');

    expect(await viaHttp(a, 'alice', 'secret-a')).toEqual({ status: 200, body: '127.0.8.1' });
    expect(await seenViaSocks(b, 'bob', 'secret-b')).toBe('127.0.8.1');
    // Right credentials at a co-tenant's address are refused; the modem's own numbers serve nobody now.
    expect((await viaHttp(b, 'alice', 'secret-a')).status).toBe(407);
    expect(await nothingAt(shared)).toBe('ECONNREFUSED');
  });

  it('a port moving to another modem keeps its address; its co-tenant keeps an open tunnel through the change', async () => {
    const [a, b] = [await listen(), await listen()];
    const alice = port({ listen: a });
    const bob = port({ id: 'port-b', login: 'bob', password: 'secret-b', listen: b });
    const shared = { ...(await modem('111', '127.0.8.2', [alice, bob])), isShared: true };
    const spare = { ...(await modem('222', '127.0.8.3', [])), isShared: true };
    const { server, agent } = await setup(withListeners('v1', [shared, spare]));
    await until(serving(agent, '111', '222'), 'both modems served');
    const bobTunnel = await socksTunnel(b, 'bob', 'secret-b');

    server.push(withListeners('v2', [{ ...shared, ports: [bob] }, { ...spare, ports: [alice] }]));
    await applied(server, 'v2');
    expect(await viaHttp(a, 'alice', 'secret-a')).toEqual({ status: 200, body: '127.0.8.3' });
    expect(await seenViaSocks(a, 'alice', 'secret-a')).toBe('127.0.8.3');
    // Bob's tunnel, opened before, still carries his request: his listener and modem were not touched.
    bobTunnel.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const chunks: Buffer[] = [];
    for await (const chunk of bobTunnel) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toContain('127.0.8.2');
  });

  it('a port added or removed opens or closes only its own listener', async () => {
    const [a, b] = [await listen(), await listen()];
    const alice = port({ listen: a });
    const m1 = await modem('111', '127.0.8.4', [alice]);
    const { server, agent } = await setup(withListeners('v1', [m1]));
    await until(serving(agent, '111'), 'the modem served');
    const aliceTunnel = await socksTunnel(a, 'alice', 'secret-a');
    const bob = port({ id: 'port-b', login: 'bob', password: 'secret-b', listen: b });
    const m2 = await modem('222', '127.0.8.5', [bob]);

    server.push(withListeners('v2', [m1, m2]));
    await applied(server, 'v2');
    expect(await viaHttp(b, 'bob', 'secret-b')).toEqual({ status: 200, body: '127.0.8.5' });

    server.push(withListeners('v3', [m1, { ...m2, ports: [] }]));
    await applied(server, 'v3');
    expect(await nothingAt(b)).toBe('ECONNREFUSED'); // nothing listens there any more
    // Alice's tunnel from before both changes is still open and carries her request.
    aliceTunnel.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const chunks: Buffer[] = [];
    for await (const chunk of aliceTunnel) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toContain('127.0.8.4');
  });

  it('a shared port sold before 045 (no listener of its own) is served on its modem\'s numbers beside a co-tenant\'s own', async () => {
    const b = await listen();
    const legacy = port();
    const shared = { ...(await modem('111', '127.0.8.6', [legacy, port({ id: 'port-b', login: 'bob', password: 'secret-b', listen: b })])), isShared: true };
    const { server, agent } = await setup(withListeners('v1', [shared]));
    await until(serving(agent, '111'), 'the modem served');
    expect(await viaHttp(shared, 'alice', 'secret-a')).toEqual({ status: 200, body: '127.0.8.6' });
    expect((await viaHttp(shared, 'bob', 'secret-b')).status).toBe(407); // bob's address is his own
    expect(await viaHttp(b, 'bob', 'secret-b')).toEqual({ status: 200, body: '127.0.8.6' });

    // The legacy port leaves: the modem stops listening on its numbers, bob keeps his.
    server.push(withListeners('v2', [{ ...shared, ports: [shared.ports[1]!] }]));
    await applied(server, 'v2');
    expect(await nothingAt(shared)).toBe('ECONNREFUSED');
    expect(await viaHttp(b, 'bob', 'secret-b')).toEqual({ status: 200, body: '127.0.8.6' });
  });
});

describe('a refused key', () => {
  it('never gets a state', async () => {
    const m1 = await modem('111', '127.0.7.9', [port()]);
    const server = new FakeServer(stateOf('v1', [m1]));
    servers.push(server);
    await server.listen();
    const dir = await mkdtemp(join(tmpdir(), 'agent-'));
    dirs.push(dir);
    const agent = startAgent(server.url, dir, 'chk_wrongwrongwrongwrongwrongwrong');
    await agent.start();
    await until(() => (server.refusals > 0 ? true : undefined), 'the refusal');
    expect(server.socket).toBeNull();
    expect(agent.snapshot()).toEqual([]);
  });
});
