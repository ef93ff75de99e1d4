import { createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PortRateLimit } from './port-rate-limit.js';
import {
  access, basic, destroyTestClients, httpConnect, readAll, seenThrough, socksConnect, startModem, startTargets,
  type Targets, type TestModem,
} from './test-support.js';
import type { PortAccess } from './types.js';

// Per-port limits (issue 18, item 3) on the data path. The limiter's correctness property (a token bucket at R bytes/s
// moves R bytes a second) is checked on the buckets' clock, which the tests move (ModemProxy's rateClock).

const RATE = 1_000_000; // bytes per second, each direction (8 Mbit/s)
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** A target that sends without end (download) and counts what it receives (upload). */
interface Hose { port: number; received: number; close(): Promise<void> }
async function startHose(): Promise<Hose> {
  const sockets = new Set<Socket>();
  const hose: Hose = {
    port: 0, received: 0,
    async close() { for (const s of sockets) s.destroy(); await new Promise((r) => server.close(r)); },
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on('data', (c: Buffer) => { hose.received += c.length; });
    // The first byte says what to do: 'd' streams to the client, anything else only counts.
    socket.once('data', (c: Buffer) => {
      if (c[0] !== 0x64) return;
      const pump = () => { while (!socket.destroyed && socket.write(CHUNK)); };
      socket.on('drain', pump);
      pump();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  hose.port = (server.address() as AddressInfo).port;
  return hose;
}

/** Writes as fast as the socket takes it until stopped. */
function flood(socket: Socket): () => void {
  let on = true;
  const pump = () => { while (on && !socket.destroyed && socket.write(CHUNK)); };
  socket.on('drain', pump);
  pump();
  return () => { on = false; socket.destroy(); };
}

const limited = (id: string, limits: PortAccess['limits']): PortAccess => access(id, { limits });
const capped = (id: string, maxConnections = 10): PortAccess =>
  limited(id, { bandwidthBytesPerSecond: RATE, maxConnections, quota: { state: 'ok' } });

let targets: Targets;
let hose: Hose;
let modem: TestModem | null = null;
beforeAll(async () => { targets = await startTargets(); hose = await startHose(); });
afterAll(async () => { await hose.close(); await targets.close(); });
afterEach(async () => {
  await destroyTestClients();
  await modem?.close();
  modem = null;
  hose.received = 0;
});

const auth = (id: string) => basic(`login-${id}`, `secret-${id}`);

describe('bandwidth cap per port', () => {
  // The buckets run on the test's clock: it stands still unless the test moves it, so what passes is exactly what the
  // moves allow, on any machine (no throughput on the wall clock here). A bucket starts empty; each tenth of a second
  // allows RATE / 10 bytes more (its burst is a tenth's worth, so nothing is lost); a reader is at most one chunk
  // (64 KiB) ahead of what was allowed, as a read is charged after it.
  const AHEAD = 64 * 1024;
  let now = 0;
  const rateClock = () => now;
  /** Moves the clock a tenth of a second at a time; after each, `check(allowed)` waits for and bounds the bytes. */
  async function tenths(count: number, check: (allowed: number) => Promise<void>) {
    for (let tenth = 1; tenth <= count; tenth++) {
      now += 100;
      await check((tenth * RATE) / 10);
    }
  }
  const atLeast = (read: () => number, allowed: number) =>
    vi.waitFor(() => expect(read()).toBeGreaterThanOrEqual(allowed), { timeout: 20_000 });

  it('holds each direction to the cap, tenth of a second by tenth: download over HTTP CONNECT, upload over SOCKS5, at once', async () => {
    modem = await startModem({ ports: [capped('p1')], rateClock });
    const down = await httpConnect(modem.http, `127.0.0.1:${hose.port}`, auth('p1'));
    expect(down.status).toBe(200);
    const up = await socksConnect(modem.socks, '127.0.0.1', hose.port, { userId: 'login-p1', password: 'secret-p1' });
    let downBytes = 0;
    down.socket.on('data', (c: Buffer) => { downBytes += c.length; }).resume();
    down.socket.write('d');
    const before = hose.received;
    const stop = flood(up);
    await tenths(10, async (allowed) => {
      await atLeast(() => downBytes, allowed);
      await atLeast(() => hose.received - before, allowed);
      expect(downBytes, 'download').toBeLessThanOrEqual(allowed + AHEAD);
      expect(hose.received - before, 'upload').toBeLessThanOrEqual(allowed + AHEAD);
    });
    stop();
  }, 60_000);

  it('two connections of one port share its cap; another port has its own', async () => {
    modem = await startModem({ ports: [capped('p1'), capped('p2')], rateClock });
    const conns = await Promise.all(['p1', 'p1', 'p2'].map((id) => httpConnect(modem!.http, `127.0.0.1:${hose.port}`, auth(id))));
    const bytes = [0, 0, 0];
    conns.forEach((x, i) => {
      x.socket.on('data', (c: Buffer) => { bytes[i]! += c.length; }).resume();
      x.socket.write('d');
    });
    await tenths(10, async (allowed) => {
      await atLeast(() => bytes[0]! + bytes[1]!, allowed);
      await atLeast(() => bytes[2]!, allowed);
      expect(bytes[0]! + bytes[1]!, 'p1, both connections').toBeLessThanOrEqual(allowed + 2 * AHEAD);
      expect(bytes[2]!, 'p2').toBeLessThanOrEqual(allowed + AHEAD);
    });
    // Each gets a share (the bucket wakes every waiting reader at once), not one starving the other.
    expect(Math.min(bytes[0]!, bytes[1]!) / (bytes[0]! + bytes[1]!)).toBeGreaterThan(0.25);
  }, 60_000);

  it('a port without a cap is not slowed, and a cap set later applies to its open tunnel', async () => {
    modem = await startModem({ ports: [access('p1')], rateClock });
    const t = await httpConnect(modem.http, `127.0.0.1:${hose.port}`, auth('p1'));
    let free = 0;
    t.socket.on('data', (c: Buffer) => { free += c.length; }).resume();
    t.socket.write('d');
    // The clock stands still: a capped port would pass one chunk; this one passes 20 tenths' worth and more.
    await atLeast(() => free, 2 * RATE);
    t.socket.destroy();
    const u = await httpConnect(modem.http, `127.0.0.1:${hose.port}`, auth('p1'));
    modem.setPorts([capped('p1')]);
    let slowed = 0;
    u.socket.on('data', (c: Buffer) => { slowed += c.length; }).resume();
    u.socket.write('d');
    await tenths(5, async (allowed) => {
      await atLeast(() => slowed, allowed);
      expect(slowed).toBeLessThanOrEqual(allowed + 2 * AHEAD);
    });
  }, 60_000);
});

describe('connections per port and the quota', () => {
  it('refuses the connection past the port\'s limit (HTTP 429, SOCKS5 refused), over both protocols together', async () => {
    modem = await startModem({ ports: [capped('p1', 2)] });
    const first = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, auth('p1'));
    expect(first.status).toBe(200);
    const second = await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, { userId: 'login-p1', password: 'secret-p1' });
    expect(await seenThrough(second)).toBeTruthy();
    const third = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, auth('p1'));
    expect(third.status).toBe(429);
    await expect(socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, { userId: 'login-p1', password: 'secret-p1' }))
      .rejects.toThrow(/NotAllowed/); // reply 0x02
    first.socket.destroy();
    await expect.poll(async () => (await httpConnect(modem!.http, `127.0.0.1:${targets.tcpPort}`, auth('p1'))).status, { timeout: 5_000 }).toBe(200);
  });

  it('a blocked port refuses new connections saying why (HTTP 403, SOCKS5 0x02) and cuts its open ones; the block ends at its time', async () => {
    modem = await startModem({ ports: [capped('p1')] });
    const open = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, auth('p1'));
    expect(open.status).toBe(200);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    modem.setPorts([limited('p1', { bandwidthBytesPerSecond: null, maxConnections: 10, quota: { state: 'blocked', until } })]);
    await readAll(open.socket); // cut: it ends
    expect(open.socket.destroyed || open.socket.readableEnded).toBe(true);
    const refused = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, auth('p1'));
    expect(refused.status).toBe(403);
    expect(await readAll(refused.socket).then((b) => b.toString())).toMatch(/used up its traffic for this month/);
    await expect(socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, { userId: 'login-p1', password: 'secret-p1' })).rejects.toThrow(/NotAllowed/);

    // The month is over by the agent's clock: the same rules let the port through again.
    modem.setPorts([limited('p1', { bandwidthBytesPerSecond: null, maxConnections: 10, quota: { state: 'blocked', until: new Date(Date.now() - 1000).toISOString() } })]);
    expect((await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, auth('p1'))).status).toBe(200);
  });
});

describe('PortRateLimit', () => {
  it('a throttled quota lowers the rate until its time, then the bandwidth cap is back by the wall clock', () => {
    let wall = Date.parse('2026-11-30T23:59:00Z');
    const limit = new PortRateLimit(() => 0, () => wall);
    limit.setLimits({ bandwidthBytesPerSecond: 1_000_000, maxConnections: 5, quota: { state: 'throttled', bytesPerSecond: 125_000, until: '2026-12-01T00:00:00Z' } });
    expect(limit.rate).toBe(125_000);
    wall += 60_000;
    expect(limit.rate).toBe(1_000_000);
    limit.setLimits({ bandwidthBytesPerSecond: null, maxConnections: 5, quota: { state: 'ok' } });
    expect(limit.rate).toBe(Infinity);
    limit.close();
  });

  it('polices datagrams: offered at 10× the cap for 10 s, what passes is the cap within the burst and one datagram', () => {
    let now = 0;
    const limit = new PortRateLimit(() => now);
    limit.setLimits({ bandwidthBytesPerSecond: 10_000, maxConnections: 5, quota: { state: 'ok' } });
    let up = 0;
    let down = 0;
    for (; now < 10_000; now += 10) {
      if (limit.admitDatagram(true, 1000)) up += 1000; // 100 kB/s offered each way
      if (limit.admitDatagram(false, 1000)) down += 1000;
    }
    // 10 s at 10 kB/s, plus at most the bucket's saved-up burst (16 kB) and one datagram over.
    for (const passed of [up, down]) {
      expect(passed).toBeGreaterThanOrEqual(100_000);
      expect(passed).toBeLessThanOrEqual(100_000 + 16 * 1024 + 1000);
    }
    limit.setLimits({ bandwidthBytesPerSecond: null, maxConnections: 5, quota: { state: 'ok' } });
    expect(limit.admitDatagram(true, 1_000_000)).toBe(true);
    limit.close();
  });
});
