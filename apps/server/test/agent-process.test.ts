import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { demoHostKey } from '../src/modules/hosts/index.js';
import { hashToken } from '../src/lib/tokens.js';
import { createCustomer } from './fixtures.js';
import { buyUsPorts, hostKeyOfModem, spawnAgent } from './agent-fixtures.js';
import { describeOnPostgres, type TestApp } from './helpers.js';
import { seedPortEnv } from './seed-ports.js';
import { copyTemplateDatabase } from './template-db.js';

// The stand-alone agent as its own process (issue 11, item 7) against a server on PostgreSQL that is stopped and
// started again: the agent keeps serving through the outage, reconnects, and obeys a change made after; then the agent
// is killed with SIGKILL mid-transfer and the traffic the server counted is checked against what the client moved.

const SECRET = 'agent-process-test-secret-0123456789abcdef';

interface Running { t: TestApp; database: DatabaseHandle }
let server: Running | null = null;
let serverPort = 0;
let dbUrl = '';
let dropDatabase: (() => Promise<void>) | undefined;
let agent: ChildProcess | null = null;
let agentDir = '';
let site: Server;
let sitePort = 0;
let hostKey = '';
interface Proxy { httpPort: number; extIp: string; login: string; password: string; portId: string }
/** Two ports on the same host: the first for the restart, the second (untouched until then) for the byte count. */
let proxies: Proxy[] = [];

async function startServer(port: number): Promise<Running> {
  const config = loadConfig({
    NODE_ENV: 'test', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: '/tmp/cellport-test',
    WEB_DIST: '/nonexistent', SESSION_SECRET: SECRET, MODEM_SIM_DELAY_MS: '30', ...await seedPortEnv(),
  });
  const database = await openDatabase({ databaseUrl: dbUrl, dataDir: '', poolSize: 5 });
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  serverPort = (app.server.address() as AddressInfo).port;
  return { database, t: { app, ctx, config, close: async () => { await app.close(); await database.close(); } } };
}

function startAgent(): ChildProcess {
  return spawnAgent({
    serverUrl: `http://127.0.0.1:${serverPort}`, hostKey, dataDir: agentDir, listenHost: '127.0.0.1',
    env: { AGENT_TRAFFIC_REPORT_SECONDS: '1' },
  });
}

/** Waits (vi.waitFor, every 50 ms) until the probe gives a value; on time-out, the probe's last error or what was awaited. */
const until = <T>(probe: () => Promise<T | undefined>, what: string, timeout = 20_000) =>
  vi.waitFor(async () => {
    const value = await probe();
    if (value === undefined) throw new Error(`timed out waiting for ${what}`);
    return value;
  }, { timeout, interval: 50 });

/**
 * One plain-forwarded request through the port, on a raw socket so the client knows exactly how many bytes it sent
 * and received (the agent counts the same bytes on its side). `onData` sees the response as it arrives.
 */
async function throughProxy(proxy: Proxy, path: string, onData?: (received: number) => void): Promise<{ status: number; body: string; sent: number; received: number }> {
  const socket = connect(proxy.httpPort, '127.0.0.1');
  await once(socket, 'connect');
  const auth = Buffer.from(`${proxy.login}:${proxy.password}`).toString('base64');
  socket.write(`GET http://127.0.0.1:${sitePort}${path} HTTP/1.1\r\nHost: 127.0.0.1:${sitePort}\r\nProxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  let received = 0;
  socket.on('data', (c: Buffer) => { received += c.length; if (chunks.length < 4) chunks.push(c); onData?.(received); });
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const head = Buffer.concat(chunks).toString('latin1');
  return { status: Number(head.slice(9, 12)), body: head.split('\r\n\r\n')[1] ?? '', sent: socket.bytesWritten, received: socket.bytesRead };
}

async function countedBytes(proxy: Proxy): Promise<bigint> {
  const { rows } = await sql<{ n: string | null }>`select (sum(bytes_in) + sum(bytes_out))::text as n from traffic_samples where port_id = ${proxy.portId}`
    .execute(server!.t.ctx.db);
  return BigInt(rows[0]?.n ?? 0);
}

const journalEmpty = async () => {
  for (const dir of await readdir(agentDir)) {
    const files = await readdir(join(agentDir, dir, 'traffic')).catch(() => []);
    if (files.length > 0) return false;
  }
  return true;
};

describeOnPostgres('a stand-alone agent process', () => {
  beforeAll(async () => {
    const template = inject('dbTemplate');
    if (template.kind !== 'postgres') throw new Error('needs PostgreSQL');
    const copy = await copyTemplateDatabase(template);
    dropDatabase = copy.drop;
    dbUrl = copy.url;

    site = createServer((req, res) => {
      if (req.url === '/big') {
        // 64 MiB, written as the client reads it (backpressure), so a transfer is surely in flight when killed.
        const chunk = Buffer.alloc(64 * 1024, 120);
        let left = 1024;
        const write = () => { while (left > 0) { left--; if (!res.write(chunk)) return void res.once('drain', write); } res.end(); };
        return write();
      }
      res.end(req.socket.remoteAddress?.replace('::ffff:', '') ?? '');
    });
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    sitePort = (site.address() as AddressInfo).port;

    server = await startServer(0);
    const { t } = server;
    await seedCatalog(t.ctx);
    const customer = await createCustomer(t, 1000);
    const ports = await buyUsPorts(t, customer, 2);
    proxies = ports.map((p) => ({ httpPort: p.http_port, extIp: p.ext_ip, login: p.login, password: p.password, portId: p._id }));
    hostKey = await hostKeyOfModem(t, ports[0]!.IMEI);
    expect(hashToken(hostKey)).not.toBe(hashToken(demoHostKey('x', SECRET)));

    agentDir = await mkdtemp(join(tmpdir(), 'cellport-agent-'));
    agent = startAgent();
    await until(async () => {
      const r = await throughProxy(proxies[0]!, '/');
      if (r.status !== 200) throw new Error(`answered ${r.status} ${r.body} after ${r.sent}/${r.received} bytes to port ${proxies[0]!.httpPort}`);
      return true;
    }, 'the port to carry traffic');
  }, 120_000);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    await server?.t.close();
    site?.close();
    if (agentDir) await rm(agentDir, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it('serves from the modem\'s own address and keeps serving while the server restarts; a change after the restart applies', async () => {
    const [proxy, other] = proxies as [Proxy, Proxy];
    expect(other.extIp).not.toBe(proxy.extIp);
    expect(proxy.extIp).toMatch(/^127\./);
    expect((await throughProxy(proxy, '/')).body).toBe(proxy.extIp);

    await server!.t.close();
    server = null;
    // The server is down: the port still works.
    expect(await throughProxy(proxy, '/')).toMatchObject({ status: 200, body: proxy.extIp });

    const restartedAt = new Date();
    server = await startServer(serverPort);
    await until(async () => {
      const host = await server!.t.ctx.db.selectFrom('hosts').select('last_seen_at').where('ingest_key_hash', '=', hashToken(hostKey)).executeTakeFirst();
      return host?.last_seen_at && host.last_seen_at > restartedAt ? true : undefined;
    }, 'the agent to reconnect');

    await server.t.ctx.db.updateTable('ports').set({ suspended_at: new Date() }).where('id', '=', proxy.portId).execute();
    await until(async () => ((await throughProxy(proxy, '/')).status === 403 ? true : undefined), 'the suspension to reach the agent');
    await server.t.ctx.db.updateTable('ports').set({ suspended_at: null }).where('id', '=', proxy.portId).execute();
    await until(async () => ((await throughProxy(proxy, '/')).status === 200 ? true : undefined), 'the resumption to reach the agent');
  }, 90_000);

  it('kill -9 mid-transfer loses or doubles no reported byte beyond the connection in flight', async () => {
    const proxy = proxies[1]!;
    // Every byte this port ever moved, as its client saw it: the agent counts the same bytes on its side.
    let completed = 0n;
    const request = async (path = '/') => {
      const r = await throughProxy(proxy, path);
      completed += BigInt(r.sent + r.received);
      return r.status === 200 ? r : undefined;
    };
    // The second port's modem has an address of its own, which the site sees.
    expect((await request())?.body).toBe(proxy.extIp);
    for (let i = 0; i < 5; i++) expect(await request()).toBeDefined();

    // A big download in flight when the agent is killed.
    let killed = false;
    const cut = await throughProxy(proxy, '/big', (received) => {
      if (!killed && received > 4 * 1024 * 1024) { killed = true; agent!.kill('SIGKILL'); }
    });
    expect(killed).toBe(true);
    const inFlightMax = BigInt(cut.sent) + 64n * 1024n * 1024n + 4096n;

    agent = startAgent();
    // Attempts while the agent starts are refused before any byte is counted; the one that works counts.
    await until(() => request(), 'the restarted agent to serve');
    for (let i = 0; i < 5; i++) expect(await request()).toBeDefined();
    await until(async () => {
      const [empty, counted] = [await journalEmpty(), await countedBytes(proxy)];
      if (!empty || counted < completed) throw new Error(`journal ${empty ? 'empty' : 'not empty'}, counted ${counted} of ${completed}`);
      return true;
    }, 'the traffic to be reported');
    const counted = await countedBytes(proxy);
    expect(counted).toBeGreaterThanOrEqual(completed);
    expect(counted).toBeLessThanOrEqual(completed + inFlightMax);
  }, 120_000);
});
