import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry, Counter } from 'prom-client';
import { Server as IoServer, type Socket as IoSocket } from 'socket.io';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOST_PROTOCOL, type DesiredState, type PortAccess, type RotateReply } from '@cellport/shared/schemas/host-protocol';
import { loadAgentConfig } from '../config.js';
import { runAgent } from '../run-agent.js';
import { MAX_FAILURES_PER_ADDRESS } from '../proxy/auth-guard.js';
import { freePort } from '../proxy/test-support.js';
import { startMetricsServer } from './metrics-server.js';

// The agent's /metrics (issue 17, item 2): the endpoint's rules (404 without a token, 401 without the right Bearer,
// the Prometheus text with it, 404 for anything else; no listener without a port), and its figures moving as real
// connections go through a real agent's proxy ports, on 127.0.0.9 (no other test listens there), against a peer
// playing the Cellport server.

const HOST = '127.0.0.9';
const KEY = 'chk_metricsmetricsmetricsmetrics';
const TOKEN = 'scrape-token-0123456789abcdef';
const far = () => new Date(Date.now() + 86_400_000).toISOString();

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => { for (const fn of cleanup.splice(0).reverse()) await fn(); });

let site: HttpServer;
let sitePort = 0;
beforeAll(async () => {
  site = createHttpServer((_req, res) => res.end('hello from the site'));
  site.listen(0, HOST);
  await once(site, 'listening');
  sitePort = (site.address() as AddressInfo).port;
});
afterAll(() => { site.close(); });

/** Waits (vi.waitFor, every 25 ms) until the probe gives a value. */
const until = <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeout = 20_000) =>
  vi.waitFor(async () => {
    const value = await probe();
    if (value === undefined) throw new Error(`timed out waiting for ${what}`);
    return value;
  }, { timeout, interval: 25 });

async function scrape(port: number, authorization?: string, path = '/metrics', method = 'GET') {
  const res = await fetch(`http://${HOST}:${port}${path}`, { method, headers: authorization ? { authorization } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', auth: res.headers.get('www-authenticate'), text: await res.text() };
}

/** One sample's value in Prometheus text, or undefined; `labels` must match exactly (in prom-client's order). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const inner = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(',');
  const prefix = inner ? `${name}{${inner}} ` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

/** A peer playing the Cellport server: sends the state, answers nothing else. */
async function fakeServer(state: DesiredState): Promise<{ url: string; socket: () => IoSocket | null }> {
  const http = createHttpServer();
  const io = new IoServer(http, { path: HOST_PROTOCOL.path });
  let current: IoSocket | null = null;
  io.on('connection', (socket) => { current = socket; socket.emit('state', state); });
  http.listen(0, HOST);
  await once(http, 'listening');
  cleanup.push(() => new Promise<void>((r) => { void io.close(() => r()); }));
  return { url: `http://${HOST}:${(http.address() as AddressInfo).port}`, socket: () => current };
}

async function startAgent(serverUrl: string, env: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'cellport-agent-metrics-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const running = await runAgent(loadAgentConfig({
    CELLPORT_SERVER_URL: serverUrl, CELLPORT_HOST_KEY: KEY, AGENT_DATA_DIR: dir, AGENT_LISTEN_HOST: HOST,
    AGENT_ALLOW_LOOPBACK: 'true', AGENT_SIM_DELAY_MS: '50', LOG_LEVEL: 'silent', ...env,
  }));
  cleanup.push(() => running.stop());
  return running;
}

/** One plain-forwarded GET on a raw socket, so the bytes each way are known exactly. */
async function plainGet(proxyPort: number, login: string, password: string): Promise<{ status: number; sent: number; received: number }> {
  const socket = connect(proxyPort, HOST);
  await once(socket, 'connect');
  const auth = Buffer.from(`${login}:${password}`).toString('base64');
  socket.write(`GET http://${HOST}:${sitePort}/ HTTP/1.1\r\nHost: ${HOST}:${sitePort}\r\nProxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`);
  let head = '';
  socket.on('data', (c: Buffer) => { if (head.length < 64) head += c.toString('latin1'); });
  await once(socket, 'close');
  return { status: Number(head.slice(9, 12)), sent: socket.bytesWritten, received: socket.bytesRead };
}

/**
 * A SOCKS5 CONNECT to the site on a raw socket, so its handshake's bytes are known: greeting 3 bytes, login 3 + both
 * lengths, request 10; answers 2, 2 and 10. Without a login it offers only no-authentication.
 */
async function socksOpen(proxyPort: number, login?: [string, string]): Promise<{ socket: Socket; ok: boolean }> {
  const socket = connect(proxyPort, HOST);
  socket.on('error', () => {});
  await once(socket, 'connect');
  let buf = Buffer.alloc(0);
  const waiting: (() => void)[] = [];
  const wake = () => { for (const w of waiting.splice(0)) w(); };
  socket.on('data', (c: Buffer) => { buf = Buffer.concat([buf, c]); wake(); });
  socket.on('close', wake);
  const take = async (n: number) => {
    while (buf.length < n && !socket.destroyed) await new Promise<void>((r) => waiting.push(r));
    const out = buf.subarray(0, n);
    buf = buf.subarray(n);
    return out;
  };
  socket.write(Buffer.from([5, 1, login ? 2 : 0]));
  if ((await take(2))[1] !== (login ? 2 : 0)) return { socket, ok: false };
  if (login) {
    const [name, password] = login.map((v) => Buffer.from(v)) as [Buffer, Buffer];
    socket.write(Buffer.concat([Buffer.from([1, name.length]), name, Buffer.from([password.length]), password]));
    if ((await take(2))[1] !== 0) return { socket, ok: false };
  }
  socket.write(Buffer.from([5, 1, 0, 1, ...HOST.split('.').map(Number), sitePort >> 8, sitePort & 0xff]));
  return { socket, ok: (await take(10))[1] === 0 };
}

function port(over: Partial<PortAccess>): PortAccess {
  return { id: 'port-m', login: 'mia', password: 'secret-m', whitelist: [], state: 'active', expiresAt: far(), ...over };
}

describe('the agent\'s /metrics endpoint', () => {
  it('listens only with a port: 404 without a token, 401 without the right Bearer, the text with it, 404 for anything else', async () => {
    const server = await fakeServer({ version: 'v0', hostId: 'h', hostName: 'h', generatedAt: new Date().toISOString(), modems: [] });
    expect((await startAgent(server.url, {})).metrics).toBeNull();

    const registry = new Registry();
    new Counter({ name: 'cellport_agent_test_total', help: 'a test counter', registers: [registry] }).inc(3);
    const open = await startMetricsServer({ host: HOST, port: 0, token: undefined, registry });
    cleanup.push(() => open.close());
    expect((await scrape(open.port, `Bearer ${TOKEN}`)).status).toBe(404);

    const agent = await startAgent(server.url, { AGENT_METRICS_PORT: String(await freePort()), AGENT_METRICS_HOST: HOST, METRICS_TOKEN: TOKEN });
    const metricsPort = agent.metrics!.port;
    const none = await scrape(metricsPort);
    expect([none.status, none.auth]).toEqual([401, 'Bearer realm="metrics"']);
    expect((await scrape(metricsPort, `Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await scrape(metricsPort, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`)).status).toBe(401);
    expect((await scrape(metricsPort, `Bearer ${TOKEN}`, '/')).status).toBe(404);
    expect((await scrape(metricsPort, `Bearer ${TOKEN}`, '/metrics', 'POST')).status).toBe(404);
    const ok = await scrape(metricsPort, `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.text).toContain('# TYPE cellport_agent_connections_total counter');
    expect(ok.text).toContain('process_cpu_seconds_total');
    expect(ok.text).toContain('nodejs_eventloop_lag_p99_seconds');
    // Not the GC histogram: its observer of every collection costs the relay CPU (process-metrics.ts).
    expect(ok.text).not.toContain('nodejs_gc_duration_seconds');
  });

  it('counts connections, bytes, refusals by reason, rotations and the modems as real connections go through', async () => {
    const modem = {
      id: 'm-1', imei: '356000000000091', httpPort: await freePort(), socksPort: await freePort(), extIp: '127.0.99.9',
      driver: 'simulated' as const, isShared: true,
      ports: [port({}), port({ id: 'port-old', login: 'old', password: 'secret-o', expiresAt: new Date(Date.now() - 60_000).toISOString() })],
    };
    const server = await fakeServer({ version: 'v-metrics', hostId: 'h', hostName: 'h', generatedAt: new Date().toISOString(), modems: [modem] });
    const agent = await startAgent(server.url, { AGENT_METRICS_PORT: String(await freePort()), AGENT_METRICS_HOST: HOST, METRICS_TOKEN: TOKEN });
    const read = async () => (await scrape(agent.metrics!.port, `Bearer ${TOKEN}`)).text;
    await until(async () => (sample(await read(), 'cellport_agent_modems', { state: 'online', health: 'unchecked' }) === 1 ? true : undefined), 'the modem served');
    const host = /cellport_agent_server_connected\{host="([0-9a-f]{12})"\} 1/.exec(await until(async () => {
      const text = await read();
      return /cellport_agent_server_connected\{host="[0-9a-f]{12}"\} 1/.test(text) ? text : undefined;
    }, 'the server connection'))![1]!;

    const before = await read();
    expect(sample(before, 'cellport_agent_bytes_total', { port_id: 'port-m', direction: 'in' })).toBeUndefined();
    expect(sample(before, 'cellport_agent_refused_connections_total', { reason: 'auth' })).toBe(0);
    expect(sample(before, 'cellport_agent_auth_blocks_total', { scope: 'address' })).toBe(0);
    expect(sample(before, 'cellport_agent_desired_state_info', { host, version: 'v-metrics' })).toBe(1);
    expect(sample(before, 'cellport_agent_desired_state_age_seconds', { host })).toBeGreaterThanOrEqual(0);

    // A request that goes through: its bytes each way, exactly as the client moved them.
    const done = await plainGet(modem.httpPort, 'mia', 'secret-m');
    expect(done.status).toBe(200);
    // Refusals: a wrong password, an expired port, SOCKS without credentials from an address on no whitelist.
    expect((await plainGet(modem.httpPort, 'mia', 'wrong')).status).toBe(407);
    expect((await plainGet(modem.httpPort, 'old', 'secret-o')).status).toBe(403);
    const anonymous = await socksOpen(modem.socksPort);
    anonymous.socket.destroy();
    expect(anonymous.ok).toBe(false);

    // An open SOCKS tunnel counts for its port while it lasts.
    const { socket: tunnel, ok } = await socksOpen(modem.socksPort, ['mia', 'secret-m']);
    cleanup.push(() => { tunnel.destroy(); });
    expect(ok).toBe(true);
    const during = await until(async () => {
      const text = await read();
      return sample(text, 'cellport_agent_open_connections', { port_id: 'port-m', kind: 'socks5' }) === 1 ? text : undefined;
    }, 'the tunnel counted as open');
    expect(sample(during, 'cellport_agent_bytes_total', { port_id: 'port-m', direction: 'in' })).toBeGreaterThanOrEqual(done.received);
    expect(sample(during, 'cellport_agent_connections_total', { kind: 'http' })).toBe(3);
    expect(sample(during, 'cellport_agent_connections_total', { kind: 'socks5' })).toBe(2);
    expect(sample(during, 'cellport_agent_refused_connections_total', { reason: 'auth' })).toBe(1);
    expect(sample(during, 'cellport_agent_refused_connections_total', { reason: 'port_expired' })).toBe(1);
    expect(sample(during, 'cellport_agent_refused_connections_total', { reason: 'whitelist' })).toBe(1);
    expect(sample(during, 'cellport_agent_refused_connections_total', { reason: 'connection_limit' })).toBe(0);
    tunnel.destroy();
    const closedText = await until(async () => {
      const text = await read();
      return sample(text, 'cellport_agent_open_connections', { port_id: 'port-m', kind: 'socks5' }) === undefined ? text : undefined;
    }, 'the tunnel closed');
    // The closed tunnel's handshake bytes are on top of the GET's: the SOCKS greeting, login and request went out.
    const socksOut = 3 + 3 + 'mia'.length + 'secret-m'.length + 10;
    expect(sample(closedText, 'cellport_agent_bytes_total', { port_id: 'port-m', direction: 'out' })).toBe(done.sent + socksOut);
    expect(sample(closedText, 'cellport_agent_bytes_total', { port_id: 'port-m', direction: 'in' })).toBe(done.received + 2 + 2 + 10);

    // A rotation: the histogram and the outcome; a command for a modem this host has not, refused.
    const reply = await server.socket()!.timeout(20_000).emitWithAck('rotate', { commandId: 'r1', imei: modem.imei }) as RotateReply;
    expect(reply.ok).toBe(true);
    await server.socket()!.timeout(20_000).emitWithAck('rotate', { commandId: 'r2', imei: '356000000000999' });
    const rotated = await read();
    expect(sample(rotated, 'cellport_agent_rotations_total', { outcome: 'ok' })).toBe(1);
    expect(sample(rotated, 'cellport_agent_rotations_total', { outcome: 'refused' })).toBe(1);
    expect(sample(rotated, 'cellport_agent_rotation_duration_seconds_count')).toBe(1);
    expect(sample(rotated, 'cellport_agent_rotation_duration_seconds_sum')).toBeGreaterThanOrEqual(0.04);
    // Password guessing: the failure that reaches the limit blocks the address (counted once), the next try is refused.
    // One wrong password came above.
    for (let i = 1; i < MAX_FAILURES_PER_ADDRESS; i++) expect((await plainGet(modem.httpPort, 'mia', `guess-${i}`)).status).toBe(407);
    expect((await plainGet(modem.httpPort, 'mia', 'secret-m')).status).toBe(429);
    const guessed = await read();
    expect(sample(guessed, 'cellport_agent_auth_blocks_total', { scope: 'address' })).toBe(1);
    expect(sample(guessed, 'cellport_agent_auth_blocks_total', { scope: 'login' })).toBe(0);
    expect(sample(guessed, 'cellport_agent_refused_connections_total', { reason: 'auth_blocked' })).toBe(1);
    // No target or client address is a label anywhere.
    expect(guessed).not.toMatch(/127\.0\.0\.9|127\.0\.99\.9/);
  });
});
