import { createSocket, type Socket as DgramSocket } from 'node:dgram';
import { once } from 'node:events';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GatewayLink } from '../link/gateway-link.js';
import { POOL, POOL_SIZE } from '../link/pool-protocol.js';
import type { PortAccess } from '../proxy/types.js';
import {
  access, basic, destroyTestClients, EGRESS, freePort, httpConnect, parseSocksUdpReply, rawConnect, readAll, readUntil,
  seenThrough, socksConnect, socksUdpAssociate, socksUdpDatagram, startModem, startTargets, startUdpEcho, udpClient,
  type Targets, type TestModem,
} from '../proxy/test-support.js';
import type { Gateway } from './gateway.js';
import {
  GATEWAY_ID, kernelRelayInTests, LinkCutter, linkModem, startGateway, testTrust, type ModemPorts, type TestTrust,
} from './gateway-test-support.js';
import { gatewayMetrics } from './gateway-metrics.js';
import { NOT_CONNECTED } from './refusal.js';

// A gateway, agents' links and test modems, all on loopback: customers connect to the gateway's ports and reach the
// modem's egress through the link; the link is cut and comes back; a slow customer does not hold up the others;
// a replaced agent is fenced.

const P1 = access('p1', { whitelist: ['127.0.0.77'] });
const AUTH = basic(P1.login, P1.password);

let trust: TestTrust;
let gateway: Gateway;
let targets: Targets;
const cleanup: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  trust = testTrust();
  gateway = await startGateway(trust);
  targets = await startTargets();
});
afterAll(async () => {
  await gateway.close();
  await targets.close();
});
afterEach(async () => {
  await destroyTestClients();
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

interface Host {
  hostId: string; modem: TestModem; ports: ModemPorts; link: GatewayLink; cutter: LinkCutter; epoch: number;
  /** What the host's next tickets say (the server's answer after a change of ports). */
  setTicket(next: (linkKey: string) => Promise<string>): void;
  /** The tickets its link was given, oldest first. */
  tickets: string[];
}

async function linkedHost(
  hostId: string, opts: { epoch?: number; ports?: PortAccess[]; rateClock?: () => number; egress?: string; poolSize?: number } = {},
): Promise<Host> {
  const modem = await startModem({ ports: opts.ports ?? [P1], rateClock: opts.rateClock, ...(opts.egress ? { egress: opts.egress } : {}) });
  cleanup.push(() => modem.close());
  const ports = { http: await freePort(), socks: await freePort() };
  const cutter = new LinkCutter(gateway.linkPort);
  const url = await cutter.start();
  cleanup.push(() => cutter.close());
  const epoch = opts.epoch ?? 1;
  const ticket = (linkKey: string) => trust.sign({
    gatewayId: GATEWAY_ID, hostId, epoch, ports: [{ port: ports.http, kind: 'http' }, { port: ports.socks, kind: 'socks' }], linkKey,
  });
  let current = (linkKey: string) => ticket(linkKey);
  const tickets: string[] = [];
  const link = linkModem(url, modem, ports, async (linkKey) => {
    const issued = await current(linkKey);
    tickets.push(issued);
    return issued;
  }, opts.poolSize);
  cleanup.push(() => link.stop());
  await vi.waitFor(() => expect(gateway.linkedHosts()).toContain(hostId), { timeout: 20_000 });
  // Its pool is full before a test's customers come: they ride pooled connections (decision 047) unless a test says not.
  await vi.waitFor(() => expect(gateway.idlePooled(hostId)).toBe(opts.poolSize ?? POOL_SIZE), { timeout: 20_000 });
  await vi.waitFor(() => expect(gateway.portsOf(hostId)).toEqual([ports.http, ports.socks].sort((a, b) => a - b)), { timeout: 20_000 });
  return { hostId, modem, ports, link, cutter, epoch, tickets, setTicket: (next) => { current = next; } };
}

/** A UDP socket bound to address:port; rejects while the port is taken. */
function bindUdp(address: string, port: number): Promise<DgramSocket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
    socket.once('error', (err) => { socket.close(); reject(err); });
    socket.bind(port, address, () => resolve(socket));
  });
}

/** A server that sends `bytes` to whoever connects, then ends. */
async function bulkServer(bytes: number): Promise<{ port: number; server: Server }> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let left = bytes;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void socket.once('drain', pump);
      }
      socket.end();
    };
    pump();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // Its connections are cut, not awaited: one held back by a bucket whose test clock stands still never ends by itself.
  cleanup.push(() => new Promise((r) => { server.close(r); for (const socket of sockets) socket.destroy(); }));
  return { port: (server.address() as AddressInfo).port, server };
}

describe('through the gateway', () => {
  it('an HTTP CONNECT and a SOCKS5 connection leave from the modem, each over a pooled link connection', async () => {
    const host = await linkedHost('host-a');
    const before = gateway.stats().paths;
    const viaHttp = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(viaHttp.status).toBe(200);
    expect(await seenThrough(viaHttp.socket)).toBe(EGRESS);
    const viaSocks = await socksConnect(host.ports.socks, '127.0.0.1', targets.tcpPort, { userId: P1.login, password: P1.password });
    expect(await seenThrough(viaSocks)).toBe(EGRESS);
    // Both relayed in the kernel (decision 050), the gateway's default where it can be built (gateway-js-relay.test.ts: not).
    expect(gateway.stats().paths).toEqual({ pooled: before.pooled + 2, stream: before.stream, kernel: before.kernel + (kernelRelayInTests() ? 2 : 0) });
    expect(host.link.pool.served).toBe(2);
    // The agent opened a pooled connection for each one taken.
    await vi.waitFor(() => expect(gateway.idlePooled('host-a')).toBe(POOL_SIZE), { timeout: 20_000 });
    // The customer's traffic is counted for the port, as on a direct connection.
    viaHttp.socket.destroy();
    viaSocks.destroy();
    await vi.waitFor(() => expect(host.modem.connectionCount).toBe(0), { timeout: 20_000 });
    const samples = host.modem.meter.collect();
    expect(samples.find((s) => s.portId === 'p1')?.bytesOut).toBeGreaterThan(0n);
  });

  it('a plain HTTP request is forwarded, and a whitelisted customer address needs no credentials', async () => {
    const host = await linkedHost('host-b');
    const socket = await rawConnect(host.ports.http, '127.0.0.77');
    socket.write(`GET http://127.0.0.1:${targets.httpPort}/hello HTTP/1.1\r\nHost: 127.0.0.1:${targets.httpPort}\r\nConnection: close\r\n\r\n`);
    const response = (await readAll(socket)).toString();
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toMatchObject({ remote: EGRESS, url: '/hello' });
    // Another address, no credentials: the proxy asks for them (407), so the gateway passed the customer's address on.
    const other = await rawConnect(host.ports.http, '127.0.0.78');
    other.write(`GET http://127.0.0.1:${targets.httpPort}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect((await readAll(other)).toString()).toMatch(/^HTTP\/1\.1 407/);
  });
});

describe('pooled link connections (decision 047)', () => {
  it('an agent that keeps no pool: its customers ride HTTP/2 streams without waiting for one, UDP included', async () => {
    const host = await linkedHost('host-s', { poolSize: 0 });
    const before = gateway.stats().paths;
    const viaHttp = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(viaHttp.socket)).toBe(EGRESS);
    const echo = await startUdpEcho();
    cleanup.push(() => echo.close());
    const { reply, relay } = await socksUdpAssociate(host.ports.socks, { auth: [P1.login, P1.password] });
    expect(reply).toBe(0);
    const client = await udpClient();
    client.send(relay, socksUdpDatagram(echo.address, echo.port, 'over a stream'));
    expect(parseSocksUdpReply(await client.next()).payload.toString()).toBe(`${EGRESS}\nover a stream`);
    expect(gateway.stats().paths).toEqual({ pooled: before.pooled, stream: before.stream + 2, kernel: before.kernel });
    expect(host.link.pool.served).toBe(0);
  });

  it('opens only with the pool key of a current link: another key is refused, and a cut link\'s pool is refilled once it is back', async () => {
    const host = await linkedHost('host-k');
    const socket = await rawConnect(gateway.linkPort);
    socket.write(`GET ${POOL.path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: ${POOL.upgrade}\r\nAuthorization: Bearer nothere.${'A'.repeat(43)}\r\n\r\n`);
    expect((await readAll(socket)).toString()).toMatch(/^HTTP\/1\.1 401/);
    const keysBefore = host.link.pool.keys;
    host.cutter.cut(); // the link and every pooled connection with it
    // The agent has the new link's key once the gateway took that link (and closed the old link's pool, if it had not
    // seen the cut yet): from then on the gateway's pool for the host is the new one.
    await vi.waitFor(() => expect(host.link.pool.keys).toBeGreaterThan(keysBefore), { timeout: 20_000 });
    await vi.waitFor(() => expect(gateway.idlePooled('host-k')).toBe(POOL_SIZE), { timeout: 20_000 });
    const before = gateway.stats().paths.pooled;
    const again = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(again.socket)).toBe(EGRESS);
    expect(gateway.stats().paths.pooled).toBe(before + 1);
  });

  it('each pooled connection opens with the hello, not an HTTP upgrade; a gateway that does not offer it gets upgrades', async () => {
    const host = await linkedHost('host-h');
    const pooledOpenings = () => host.cutter.openings.filter((o) => o.startsWith(POOL.hello) || o.startsWith(`GET ${POOL.path} `));
    expect(pooledOpenings()).toEqual(Array(POOL_SIZE).fill(expect.stringMatching(/^CELLPORT-POOL\/1 /)));
    const before = gateway.stats().paths.pooled;
    const via = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(via.socket)).toBe(EGRESS);
    expect(gateway.stats().paths.pooled).toBe(before + 1);
    // The one taken is replaced the same way.
    await vi.waitFor(() => expect(pooledOpenings()).toHaveLength(POOL_SIZE + 1), { timeout: 20_000 });
    expect(pooledOpenings()[POOL_SIZE]).toMatch(/^CELLPORT-POOL\/1 /);

    // A gateway as before the hello: the agent upgrades, and its customers still ride pooled connections.
    const older = await startGateway(trust, { offerPoolHello: false });
    cleanup.push(() => older.close());
    const modem = await startModem({ ports: [P1] });
    cleanup.push(() => modem.close());
    const ports = { http: await freePort(), socks: await freePort() };
    const cutter = new LinkCutter(older.linkPort);
    const link = linkModem(await cutter.start(), modem, ports, (linkKey) => trust.sign({
      linkKey, gatewayId: GATEWAY_ID, hostId: 'host-u', epoch: 1, ports: [{ port: ports.http, kind: 'http' }, { port: ports.socks, kind: 'socks' }],
    }));
    cleanup.push(() => link.stop());
    cleanup.push(() => cutter.close());
    await vi.waitFor(() => expect(older.idlePooled('host-u')).toBe(POOL_SIZE), { timeout: 20_000 });
    expect(cutter.openings.filter((o) => o.startsWith(POOL.hello))).toEqual([]);
    expect(cutter.openings.filter((o) => o.startsWith(`GET ${POOL.path} `))).toHaveLength(POOL_SIZE);
    const viaOlder = await httpConnect(ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(viaOlder.socket)).toBe(EGRESS);
    // An upgraded connection has been read by the HTTP server: it stays with the JavaScript relay.
    expect(older.stats().paths).toEqual({ pooled: 1, stream: 0, kernel: 0 });
  });

  it('the link listener: a hello with a key no link holds is closed without a word; an HTTP request sent in pieces is HTTP', async () => {
    const hello = await rawConnect(gateway.linkPort);
    hello.write(`${POOL.hello}nothere.${'A'.repeat(43)}\n`);
    expect((await readAll(hello)).toString()).toBe('');
    const tooLong = await rawConnect(gateway.linkPort);
    tooLong.write(`${POOL.hello}${'A'.repeat(POOL.maxHelloBytes)}`);
    expect((await readAll(tooLong)).toString()).toBe('');
    // Shorter than the hello's prefix at first: nothing is decided until the bytes tell.
    const http = await rawConnect(gateway.linkPort);
    http.write('GE');
    setImmediate(() => http.write('T / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect((await readAll(http)).toString()).toMatch(/^HTTP\/1\.1 426/);
  });

  it('a gateway restart: the pool goes with the old process and comes back under the new one\'s key', async () => {
    const first = await startGateway(trust);
    const linkPort = first.linkPort;
    const modem = await startModem({ ports: [P1] });
    cleanup.push(() => modem.close());
    const ports = { http: await freePort(), socks: await freePort() };
    const link = linkModem(`http://127.0.0.1:${linkPort}`, modem, ports, (linkKey) => trust.sign({
      linkKey, gatewayId: GATEWAY_ID, hostId: 'host-r', epoch: 1, ports: [{ port: ports.http, kind: 'http' }, { port: ports.socks, kind: 'socks' }],
    }));
    cleanup.push(() => link.stop());
    await vi.waitFor(() => expect(first.idlePooled('host-r')).toBe(POOL_SIZE), { timeout: 20_000 });
    const keys = link.pool.keys;
    await first.close();
    await vi.waitFor(() => expect(link.pool.idleCount).toBe(0), { timeout: 20_000 });
    const second = await startGateway(trust, { linkPort });
    cleanup.push(() => second.close());
    await vi.waitFor(() => expect(link.pool.keys).toBeGreaterThan(keys), { timeout: 20_000 });
    await vi.waitFor(() => expect(second.idlePooled('host-r')).toBe(POOL_SIZE), { timeout: 20_000 });
    const via = await httpConnect(ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(via.socket)).toBe(EGRESS);
    expect(second.stats().paths).toEqual({ pooled: 1, stream: 0, kernel: kernelRelayInTests() ? 1 : 0 });
  });
});

describe('the gateway\'s relayed sockets read into reused buffers (issue 31 item 2)', () => {
  /** An echo server: what a connection sends comes back, then it ends. */
  async function echoServer(): Promise<number> {
    const sockets = new Set<Socket>();
    const server = createServer({ allowHalfOpen: true }, (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      socket.pipe(socket);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanup.push(() => new Promise((r) => { server.close(r); for (const socket of sockets) socket.destroy(); }));
    return (server.address() as AddressInfo).port;
  }

  /** Sends `bytes` through `socket` to the echo and hashes what comes back. */
  async function roundTrip(socket: Socket, bytes: Buffer): Promise<string> {
    const hash = createHash('sha256');
    let received = 0;
    const done = new Promise<void>((resolve) => {
      socket.on('data', (c: Buffer) => { hash.update(c); received += c.length; if (received >= bytes.length) resolve(); });
    });
    socket.resume();
    for (let at = 0; at < bytes.length; at += 256 * 1024) socket.write(bytes.subarray(at, at + 256 * 1024));
    await done;
    return hash.digest('hex');
  }

  it('8 MiB there and back arrive intact, over a pooled connection and over a stream', async () => {
    const echo = await echoServer();
    const bytes = randomBytes(8 * 1024 * 1024);
    const expected = createHash('sha256').update(bytes).digest('hex');
    for (const host of [await linkedHost('host-b1'), await linkedHost('host-b2', { poolSize: 0 })]) {
      const via = await httpConnect(host.ports.http, `127.0.0.1:${echo}`, AUTH);
      expect(via.status).toBe(200);
      expect(await roundTrip(via.socket, bytes)).toBe(expected);
    }
  });
});

describe('per-port limits through the gateway', () => {
  it('the bandwidth cap holds tenth of a second by tenth (on the buckets\' clock), and the connection limit refuses the next connection', async () => {
    // The limits are the modem's (the same ModemProxy serves listeners and the link): a token bucket per port. Its
    // clock is the test's: it stands still unless moved, so what passes is what the moves allow, on any machine.
    const RATE = 1_000_000;
    let now = 0;
    const capped = access('p1', { ...P1, limits: { bandwidthBytesPerSecond: RATE, maxConnections: 2, quota: { state: 'ok' } } });
    const host = await linkedHost('host-l', { ports: [capped], rateClock: () => now });
    const bulk = await bulkServer(1024 * 1024 * 1024);
    const first = await httpConnect(host.ports.http, `127.0.0.1:${bulk.port}`, AUTH);
    expect(first.status).toBe(200);
    const second = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(second.status).toBe(200);
    const third = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(third.status).toBe(429); // the port's third connection at once, through the gateway as directly
    let bytes = 0;
    first.socket.on('data', (c: Buffer) => { bytes += c.length; });
    first.socket.resume();
    // The bucket starts empty: a read from the target is let through on credit and the next waits for the clock.
    // Each tenth of a second allows RATE / 10 bytes more (the burst is a tenth's worth, so nothing is lost); the
    // proxy reads from the target in chunks of at most 64 KiB, so it is at most one chunk ahead of what was allowed.
    const AHEAD = 64 * 1024;
    for (let tenth = 1; tenth <= 10; tenth++) {
      now += 100;
      const allowed = (tenth * RATE) / 10;
      await vi.waitFor(() => expect(bytes).toBeGreaterThanOrEqual(allowed), { timeout: 20_000 });
      expect(bytes, `after ${tenth} tenth(s) of a second`).toBeLessThanOrEqual(allowed + AHEAD);
    }
  }, 60_000);
});

describe('SOCKS5 UDP through the gateway', () => {
  it('relays datagrams from the modem\'s egress; the relay is the gateway\'s; it ends with the control connection', async () => {
    const host = await linkedHost('host-u');
    const echo = await startUdpEcho();
    cleanup.push(() => echo.close());
    const pooledBefore = gateway.stats().paths.pooled;
    const { control, reply, relay } = await socksUdpAssociate(host.ports.socks, { auth: [P1.login, P1.password] });
    expect(reply).toBe(0);
    expect(gateway.stats().paths.pooled).toBe(pooledBefore + 1); // the control connection is a pooled one
    expect(relay.address).toBe('127.0.0.1');
    expect(relay.port).not.toBe(host.ports.socks);
    const client = await udpClient();
    for (const payload of ['one', 'two', 'x'.repeat(1400)]) {
      client.send(relay, socksUdpDatagram(echo.address, echo.port, payload));
      const answer = parseSocksUdpReply(await client.next());
      expect(`${answer.host}:${answer.port}`).toBe(`${echo.address}:${echo.port}`);
      expect(answer.payload.toString()).toBe(`${EGRESS}\n${payload}`);
    }
    // Counted for the port on the agent, as a direct association's datagrams are.
    await vi.waitFor(() => expect(host.modem.meter.collect().find((x) => x.portId === 'p1')?.bytesOut ?? 0n).toBeGreaterThan(0n), { timeout: 20_000 });
    // The control connection closes: the association ends, on the agent and at the gateway.
    control.destroy();
    await vi.waitFor(() => expect(host.modem.connectionCount).toBe(0), { timeout: 20_000 });
    // At the gateway: its relay socket is gone once another can bind its port. Bound by the test, the port takes the
    // next datagram itself, so that datagram cannot reach the echo by any path.
    const before = echo.seen.length;
    const squatter = await vi.waitFor(() => bindUdp(relay.address, relay.port), { timeout: 20_000, interval: 20 });
    cleanup.push(() => new Promise<void>((r) => { squatter.close(() => r()); }));
    const arrived = once(squatter, 'message');
    client.send(relay, socksUdpDatagram(echo.address, echo.port, 'after the end'));
    const [msg] = await arrived as [Buffer];
    expect(msg.subarray(-'after the end'.length).toString()).toBe('after the end');
    expect(echo.seen.length).toBe(before);
  });
});

describe('the link', () => {
  it('cut mid-transfer: that host\'s streams fail, another host\'s go on, and the link comes back', async () => {
    const a = await linkedHost('host-c');
    const b = await linkedHost('host-d');
    const bulk = await bulkServer(32 * 1024 * 1024);
    const onA = await httpConnect(a.ports.http, `127.0.0.1:${bulk.port}`, AUTH);
    const onB = await httpConnect(b.ports.http, `127.0.0.1:${bulk.port}`, AUTH);
    const received = { a: 0, b: 0 };
    onA.socket.on('data', (c: Buffer) => { received.a += c.length; });
    const doneB = new Promise<void>((resolve) => {
      onB.socket.on('data', (c: Buffer) => { received.b += c.length; });
      onB.socket.once('end', () => resolve());
    });
    onA.socket.resume();
    onB.socket.resume();
    await vi.waitFor(() => expect(received.a).toBeGreaterThan(1024 * 1024), { timeout: 20_000 });
    const closedA = once(onA.socket, 'close');
    a.cutter.cut();
    await closedA; // the customer on the cut link sees the connection end …
    expect(received.a).toBeLessThan(32 * 1024 * 1024);
    await doneB; // … the other host's customer gets everything
    expect(received.b).toBe(32 * 1024 * 1024);

    // While the link is down: an HTTP customer gets a 502 that says what to do, a SOCKS5 one reply 0x04.
    const http = await rawConnect(a.ports.http);
    http.write(`GET http://127.0.0.1:${targets.httpPort}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const refused = (await readAll(http)).toString();
    if (!refused.startsWith('HTTP/1.1 502')) {
      // The agent may already be back (its first retry is after 0.25–0.5 s): then the request went through.
      expect(refused).toMatch(/^HTTP\/1\.1 (200|40\d)/);
    } else {
      expect(refused).toContain(NOT_CONNECTED);
    }
    await vi.waitFor(() => expect(gateway.linkedHosts()).toContain('host-c'), { timeout: 20_000 });
    const again = await httpConnect(a.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(again.socket)).toBe(EGRESS);
  });

  it('its metrics count links, customers\' connections and their bytes, and customers refused while a link is down', async () => {
    const registry = gatewayMetrics(() => gateway.stats(), { processMetrics: false });
    const value = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    const before = await registry.metrics();
    const host = await linkedHost('host-metrics');
    const viaHttp = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(viaHttp.socket)).toBe(EGRESS);
    const during = await registry.metrics();
    expect(value(during, 'cellport_gateway_links')).toBeGreaterThanOrEqual(1);
    expect(value(during, 'cellport_gateway_ports')).toBeGreaterThanOrEqual(2);
    expect(value(during, 'cellport_gateway_open_connections')).toBeGreaterThanOrEqual(1);
    expect(value(during, 'cellport_gateway_connections_total') - value(before, 'cellport_gateway_connections_total')).toBe(1);
    const pooled = 'cellport_gateway_connections_by_path_total{path="pooled"}';
    expect(value(during, pooled) - value(before, pooled)).toBe(1);
    viaHttp.socket.destroy();
    await once(viaHttp.socket, 'close');
    const moved = await vi.waitFor(async () => {
      const text = await registry.metrics();
      const bytesIn = value(text, 'cellport_gateway_bytes_total{direction="in"}') - value(before, 'cellport_gateway_bytes_total{direction="in"}');
      expect(bytesIn).toBeGreaterThanOrEqual(viaHttp.socket.bytesRead);
      return text;
    }, { timeout: 20_000 });
    expect(value(moved, 'cellport_gateway_bytes_total{direction="out"}') - value(before, 'cellport_gateway_bytes_total{direction="out"}'))
      .toBeGreaterThanOrEqual(viaHttp.socket.bytesWritten);

    host.link.stop();
    await vi.waitFor(() => expect(gateway.linkedHosts()).not.toContain('host-metrics'), { timeout: 20_000 });
    const http = await rawConnect(host.ports.http);
    http.write(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect((await readAll(http)).toString()).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
    const after = await registry.metrics();
    const refused = 'cellport_gateway_refused_connections_total{reason="link_down"}';
    expect(value(after, refused) - value(before, refused)).toBe(1);
  });

  it('with no link: 502 on the HTTP port, SOCKS5 reply 0x04 on the SOCKS port', async () => {
    const host = await linkedHost('host-e');
    host.link.stop();
    await vi.waitFor(() => expect(gateway.linkedHosts()).not.toContain('host-e'), { timeout: 20_000 });
    const http = await rawConnect(host.ports.http);
    http.write(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const answer = (await readAll(http)).toString();
    expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
    expect(answer).toContain(NOT_CONNECTED);
    await expect(socksConnect(host.ports.socks, '127.0.0.1', targets.tcpPort, { userId: P1.login, password: P1.password }))
      .rejects.toThrow(/HostUnreachable/);
  });

  it('one customer who stops reading does not hold up 50 others on the same link', async () => {
    const host = await linkedHost('host-f');
    // The slow one has more to send than the whole link's window (64 MiB): without a window per stream, its unread
    // bytes would fill the link's and stall everyone. With one, only its stream's 1 MiB is in flight.
    const SLOW = 96 * 1024 * 1024;
    const EACH = 1024 * 1024;
    const slowSource = await bulkServer(SLOW);
    const bulk = await bulkServer(EACH);
    const slow = await httpConnect(host.ports.http, `127.0.0.1:${slowSource.port}`, AUTH);
    slow.socket.pause();
    // It has stopped reading once its own buffer is full: from then on its bytes pile up in the link's stream.
    await vi.waitFor(() => expect(slow.socket.readableLength).toBeGreaterThanOrEqual(slow.socket.readableHighWaterMark), { timeout: 20_000 });
    const others = await Promise.all(Array.from({ length: 50 }, async () => {
      const { socket } = await httpConnect(host.ports.http, `127.0.0.1:${bulk.port}`, AUTH);
      return readAll(socket).then((data) => data.length);
    }));
    expect(others).toEqual(Array.from({ length: 50 }, () => EACH));
    expect(slow.socket.destroyed).toBe(false);
    // And the slow one still gets all of its bytes once it reads.
    let got = 0;
    slow.socket.on('data', (c: Buffer) => { got += c.length; });
    await closedSocket(slow.socket);
    expect(got).toBe(SLOW);
  }, 60_000);

  it('fences: a link with an older epoch is refused; a newer one replaces the holder', async () => {
    const host = await linkedHost('host-g', { epoch: 5 });
    const older = linkModem(`http://127.0.0.1:${gateway.linkPort}`, host.modem, host.ports, (linkKey) => trust.sign({
      linkKey, gatewayId: GATEWAY_ID, hostId: 'host-g', epoch: 4, ports: [{ port: host.ports.http, kind: 'http' }],
    }));
    cleanup.push(() => older.stop());
    await vi.waitFor(() => expect(older.state.state).toBe('refused'), { timeout: 20_000 });
    expect(older.state.problem).toMatch(/409.*fenced/);
    expect(host.link.state.state).toBe('up');

    const tunnel = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(tunnel.socket)).toBe(EGRESS);
    const newer = linkModem(`http://127.0.0.1:${gateway.linkPort}`, host.modem, host.ports, (linkKey) => trust.sign({
      linkKey, gatewayId: GATEWAY_ID, hostId: 'host-g', epoch: 6, ports: [{ port: host.ports.http, kind: 'http' }, { port: host.ports.socks, kind: 'socks' }],
    }));
    cleanup.push(() => newer.stop());
    await vi.waitFor(() => expect(newer.state.state).toBe('up'), { timeout: 20_000 });
    // The replaced agent's link is closed with its streams; it then keeps being refused.
    await closedSocket(tunnel.socket);
    await vi.waitFor(() => expect(host.link.state.state).toBe('refused'), { timeout: 20_000 });
    // The replaced agent's pool went with its link; the newer link's pool serves the next customer.
    expect(host.link.pool.idleCount).toBe(0);
    await vi.waitFor(() => expect(gateway.idlePooled('host-g')).toBe(POOL_SIZE), { timeout: 20_000 });
    const viaNewer = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(viaNewer.socket)).toBe(EGRESS);
    expect(newer.pool.served).toBe(1);
  });

  it('refuses a ticket for another gateway, a forged one and an expired one, saying why', async () => {
    const modem = await startModem({ ports: [P1] });
    cleanup.push(() => modem.close());
    const ports = { http: await freePort(), socks: await freePort() };
    const url = `http://127.0.0.1:${gateway.linkPort}`;
    const forger = testTrust();
    const cases: Array<[(linkKey: string) => Promise<string>, RegExp]> = [
      [(linkKey) => trust.sign({ linkKey, gatewayId: '00000000-0000-4000-8000-000000000000', hostId: 'h', epoch: 1, ports: [] }), /401.*it is for gateway 00000000-0000-4000-8000-000000000000, and this gateway's GATEWAY_ID is/],
      [(linkKey) => forger.sign({ linkKey, gatewayId: GATEWAY_ID, hostId: 'h', epoch: 1, ports: [] }), /401.*signature/],
      [(linkKey) => trust.sign({ linkKey, gatewayId: GATEWAY_ID, hostId: 'h', epoch: 1, ports: [], expiresIn: '-1m' }), /401.*exp/],
    ];
    for (const [ticket, why] of cases) {
      const link = linkModem(url, modem, ports, ticket);
      cleanup.push(() => link.stop());
      await vi.waitFor(() => expect(link.state.state).toBe('refused'), { timeout: 20_000 });
      expect(link.state.problem).toMatch(why);
      link.stop();
    }
    expect(gateway.linkedHosts()).not.toContain('h');
  });

  it('a replayed ticket does not take a host\'s link: another client with the agent\'s ticket but not its key is refused', async () => {
    const lines: string[] = [];
    const log = { info() {}, warn: (_f: object, m: string) => { lines.push(m); }, error: (_f: object, m: string) => { lines.push(m); } };
    const own = await startGateway(trust, { log });
    cleanup.push(() => own.close());
    const modem = await startModem({ ports: [P1] });
    cleanup.push(() => modem.close());
    const ports = { http: await freePort(), socks: await freePort() };
    const issued: string[] = [];
    const agent = linkModem(`http://127.0.0.1:${own.linkPort}`, modem, ports, async (linkKey) => {
      const ticket = await trust.sign({ linkKey, gatewayId: GATEWAY_ID, hostId: 'host-r', epoch: 3, ports: [{ port: ports.http, kind: 'http' }] });
      issued.push(ticket);
      return ticket;
    });
    cleanup.push(() => agent.stop());
    await vi.waitFor(() => expect(own.linkedHosts()).toContain('host-r'), { timeout: 20_000 });
    await vi.waitFor(() => expect(own.portsOf('host-r')).toEqual([ports.http]), { timeout: 20_000 });
    const tunnel = await httpConnect(ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(tunnel.socket)).toBe(EGRESS);

    // The thief replays the agent's own ticket (same host, same epoch) from a link of its own, with a key of its own.
    const stolen = issued.at(-1)!;
    const thief = await startModem({ ports: [P1] });
    cleanup.push(() => thief.close());
    const thiefLink = linkModem(`http://127.0.0.1:${own.linkPort}`, thief, ports, async () => stolen);
    cleanup.push(() => thiefLink.stop());
    await vi.waitFor(() => expect(lines).toContain('link refused: no proof of the key its ticket binds'), { timeout: 20_000 });
    thiefLink.stop();

    // The agent's link and its customers' connections were never touched, and its ports still lead to its modem.
    expect(agent.state.state).toBe('up');
    expect(lines).not.toContain('a newer link of this host replaces the older one');
    tunnel.socket.write('still here\n');
    expect((await readUntil(tunnel.socket, (d) => d.includes('still here'))).toString()).toContain('still here');
    const fresh = await httpConnect(ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(fresh.socket)).toBe(EGRESS);
    expect(thief.connectionCount).toBe(0);
  });

  it('closes a link whose ticket ended without a renewal (by the gateway\'s clock)', async () => {
    let clock = Date.now();
    const lines: string[] = [];
    const log = { info() {}, warn: (_f: object, m: string) => { lines.push(m); }, error: (_f: object, m: string) => { lines.push(m); } };
    const own = await startGateway(trust, { now: () => clock, log });
    cleanup.push(() => own.close());
    const modem = await startModem({ ports: [P1] });
    cleanup.push(() => modem.close());
    const ports = { http: await freePort(), socks: await freePort() };
    const link = linkModem(`http://127.0.0.1:${own.linkPort}`, modem, ports, (linkKey) => trust.sign({
      linkKey, gatewayId: GATEWAY_ID, hostId: 'host-x', epoch: 1, ports: [{ port: ports.http, kind: 'http' }],
    }));
    cleanup.push(() => link.stop());
    await vi.waitFor(() => expect(own.linkedHosts()).toContain('host-x'), { timeout: 20_000 });
    clock += 2 * 3600_000; // the ticket (1 h) has ended and no renewal came
    await vi.waitFor(() => expect(lines).toContain('host link closed: its ticket expired without renewal'), { timeout: 20_000 });
  });

  it('takes the ports of a renewed ticket (a modem added) without dropping the link', async () => {
    const host = await linkedHost('host-h');
    const extra = await freePort();
    const tunnel = await httpConnect(host.ports.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(await seenThrough(tunnel.socket)).toBe(EGRESS);
    const ticket = (linkKey: string) => trust.sign({
      linkKey, gatewayId: GATEWAY_ID, hostId: 'host-h', epoch: host.epoch,
      ports: [{ port: host.ports.http, kind: 'http' }, { port: host.ports.socks, kind: 'socks' }, { port: extra, kind: 'http' }],
    });
    // The server's tickets now name three ports; renewNow sends a fresh one on the open link.
    host.setTicket(ticket);
    host.link.renewNow();
    await vi.waitFor(() => expect(gateway.portsOf('host-h')).toContain(extra), { timeout: 20_000 });
    tunnel.socket.write('still here\n');
    const echoed = await readUntil(tunnel.socket, (d) => d.includes('still here'));
    expect(echoed.toString()).toContain('still here');
    // No modem of the agent serves the new number yet: its answer on the pooled connection says so, and the customer
    // gets the gateway's refusal.
    const before = gateway.stats();
    const http = await rawConnect(extra);
    http.write(`GET http://127.0.0.1:${targets.httpPort}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect((await readAll(http)).toString()).toMatch(/^HTTP\/1\.1 502/);
    expect(gateway.stats().refused.not_served).toBe(before.refused.not_served + 1);
    expect(gateway.stats().paths).toEqual(before.paths);
  });
});

describe('a port that moves to another host behind the gateway (decision 045)', () => {
  it('keeps its numbers: the gateway points them at the new host, and the old host\'s next ticket takes nothing back', async () => {
    const from = await linkedHost('host-move-a');
    const to = await linkedHost('host-move-b', { egress: '127.0.0.43' });
    const moved = { ...from.ports };
    const sorted = [moved.http, moved.socks].sort((a, b) => a - b);
    // The new host's agent serves the port's numbers now (its route reads these), and its next ticket names them.
    to.ports.http = moved.http;
    to.ports.socks = moved.socks;
    to.setTicket((linkKey) => trust.sign({
      linkKey, gatewayId: GATEWAY_ID, hostId: 'host-move-b', epoch: to.epoch,
      ports: [{ port: moved.http, kind: 'http' }, { port: moved.socks, kind: 'socks' }],
    }));
    to.link.renewNow();
    await vi.waitFor(() => expect(gateway.portsOf('host-move-b')).toEqual(sorted), { timeout: 20_000 });
    expect(gateway.portsOf('host-move-a')).toEqual([]);
    const viaHttp = await httpConnect(moved.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(viaHttp.status).toBe(200);
    expect(await seenThrough(viaHttp.socket)).toBe('127.0.0.43');

    // The old host's next ticket no longer names them (it names a new port of its own, the marker that the gateway
    // has taken that ticket): the moved listeners stay with the new host.
    const marker = await freePort();
    from.setTicket((linkKey) => trust.sign({
      linkKey, gatewayId: GATEWAY_ID, hostId: 'host-move-a', epoch: from.epoch, ports: [{ port: marker, kind: 'http' }],
    }));
    from.link.renewNow();
    await vi.waitFor(() => expect(gateway.portsOf('host-move-a')).toEqual([marker]), { timeout: 20_000 });
    expect(gateway.portsOf('host-move-b')).toEqual(sorted);
    const viaSocks = await socksConnect(moved.socks, '127.0.0.1', targets.tcpPort, { userId: P1.login, password: P1.password });
    expect(await seenThrough(viaSocks)).toBe('127.0.0.43');
  });
});

function closedSocket(socket: Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  socket.resume();
  return once(socket, 'close').then(() => undefined);
}
