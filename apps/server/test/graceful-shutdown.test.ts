import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { io as ioClient } from 'socket.io-client';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { REALTIME_PATH } from '@cellport/shared/schemas/realtime';
import type { DatabaseHandle } from '../src/db/database.js';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { createCustomer, json, usdtBalance } from './fixtures.js';
import { within } from './announcements.js';
import { describeOnPostgres, type TestApp } from './helpers.js';
import { openProcessTestWorld, type ProcessTestWorld } from './process-test-world.js';
import { buyUsPorts, hostKeyOfModem, spawnAgent } from './agent-fixtures.js';
import { serverProcessEnv, spawnServer, watched } from './server-process.js';

// Issue 17, item 5: SIGTERM mid-purchase and mid-download. The server runs as its own process on PostgreSQL: a
// purchase is held in flight (its balance row locked by the test) when SIGTERM arrives; new requests are refused, the
// purchase completes (200, its ports exist, the money moved once), the customer's realtime socket is closed by the
// server, and the process exits 0. Then the stand-alone agent gets SIGTERM while a download through a port is half
// done: new connections are refused, the download completes with every byte, and the agent exits 0.

const SECRET = 'graceful-shutdown-test-secret-0123456789ab';
const DRAIN_SECONDS = 60;
const AGENT_HOST = '127.0.0.6';

let world: ProcessTestWorld | undefined;
let dbUrl = '';
let direct: DatabaseHandle;
let t: TestApp;
let dataDir = '';
const children: ChildProcess[] = [];

const serverEnv = () => serverProcessEnv({ dbUrl, secret: SECRET, dataDir }, { LOG_PRETTY: 'false', SHUTDOWN_TIMEOUT_MS: String(DRAIN_SECONDS * 1000) });

/** Watched, and killed after the tests if still running. */
const started = (proc: ChildProcess) => { children.push(proc); return watched(proc); };

const exited = (proc: ChildProcess) => (proc.exitCode !== null ? Promise.resolve(proc.exitCode) : once(proc, 'exit').then(([code]) => code as number | null));

/** A request on a new connection, or the connection's error code. */
async function fresh(url: string, init: RequestInit = {}): Promise<number | string> {
  try {
    return (await fetch(url, init)).status;
  } catch (err) {
    return String((err as { cause?: { code?: string } }).cause?.code ?? err);
  }
}

describeOnPostgres('SIGTERM: graceful stops', () => {
  beforeAll(async () => {
    // Customers, catalog and ports are made in-process (no job runner) on the same database and secret.
    world = await openProcessTestWorld({ name: 'graceful', env: (paths) => { ({ dbUrl, dataDir } = paths); return serverEnv(); } });
    ({ t, database: direct } = world);
    await seedCatalog(t.ctx);
  }, 180_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await world?.cleanup();
  });

  const buyBody = async () => {
    const us = await t.ctx.db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
    const tariff = await t.ctx.db.selectFrom('tariffs').select(['id', 'price']).where('country_id', '=', us.id).where('is_shared', '=', false)
      .where('period', '=', 'month').executeTakeFirstOrThrow();
    return { tariff, body: { tariff_id: tariff.id, country_id: us.id, isShared: false, rotationInterval: 0, modemCount: 1 } };
  };

  it('a purchase in flight completes once, new requests are refused, realtime sockets are closed, and the process exits 0', async () => {
    const customer = await createCustomer(t, 1000);
    const before = await usdtBalance(t, customer.id);
    const { body } = await buyBody();

    const proc = spawnServer(serverEnv());
    const server = started(proc);
    const listening = await server.line(/Server listening at http:\/\/127\.0\.0\.1:\d+/, 'the server listening');
    const base = listening.slice(listening.indexOf('http://'));

    // The customer's realtime socket, connected before the stop.
    const token = ((await (await fetch(`${base}/api/v1/token`, { headers: { cookie: customer.cookie } })).json()) as { token: string }).token;
    const socket = ioClient(base, { path: REALTIME_PATH, auth: { token }, transports: ['websocket'], reconnection: false });
    await within(new Promise<void>((resolve) => socket.once('connect', () => resolve())), 20_000, 'the realtime socket connecting');
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

    // The purchase waits on the customer's balance row, which the test holds locked.
    const lock = new pg.Client({ connectionString: dbUrl });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query('select 1 from balances where user_id = $1 for update', [customer.id]);
      const purchase = fetch(`${base}/api/v1/payment/balance/buy`, {
        method: 'POST', body: JSON.stringify(body),
        headers: { ...json(customer.cookie).headers, 'content-type': 'application/json' },
      });
      await vi.waitFor(async () => {
        const { rows } = await sql<{ n: string }>`select count(*)::text as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(direct.db);
        if (rows[0]!.n === '0') throw new Error('the purchase is not waiting on the lock yet');
      }, { timeout: 30_000, interval: 50 });

      proc.kill('SIGTERM');
      await server.line(/shutdown 1\/4/, 'the first shutdown line');
      // New requests are turned away (503 on a connection still accepted while closing, or no connection at all).
      await vi.waitFor(async () => {
        const status = await fresh(`${base}/api/v1/token`, { headers: { cookie: customer.cookie } });
        if (status !== 'ECONNREFUSED') throw new Error(`a new request got ${status}`);
      }, { timeout: 30_000, interval: 50 });
      expect(['io server disconnect', 'transport close']).toContain(await within(disconnected, 30_000, 'the realtime socket closed'));
      expect(proc.exitCode).toBeNull(); // still finishing the purchase

      await lock.query('commit');
      const answer = await within(purchase, 30_000, 'the purchase answered');
      expect(answer.status, await answer.clone().text()).toBe(200);
    } finally {
      await lock.end();
      socket.close();
    }
    const code = await within(exited(proc), 30_000, 'the server exiting').catch((err: Error) => { throw new Error(`${err.message}:\n${server.output()}`); });
    expect(code).toBe(0);
    expect(server.output()).toMatch(/shutdown 4\/4: database closed; exiting 0/);

    const ports = await t.ctx.db.selectFrom('ports').select('id').where('user_id', '=', customer.id).execute();
    expect(ports).toHaveLength(1);
    const debits = await t.ctx.db.selectFrom('ledger_entries').select('amount').where('user_id', '=', customer.id).where('amount', '<', 0n).execute();
    expect(debits).toHaveLength(1);
    expect(await usdtBalance(t, customer.id)).toBe(before + BigInt(debits[0]!.amount));
  }, 240_000);

  it('the agent drains: a download in flight completes with every byte, new connections are refused, exit 0', async () => {
    // A site that sends half of a body, then waits for the test before sending the rest.
    const HALF = 256 * 1024;
    let release!: () => void;
    const released = new Promise<void>((r) => { release = r; });
    const site: Server = createServer((req, res) => {
      res.writeHead(200, { 'content-length': String(2 * HALF) });
      res.write(Buffer.alloc(HALF, 97));
      void released.then(() => res.end(Buffer.alloc(HALF, 98)));
    });
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    const sitePort = (site.address() as AddressInfo).port;

    // The server in this process (it serves the agent's host protocol), a customer with one port, its host's key.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const customer = await createCustomer(t, 1000);
    const port = (await buyUsPorts(t, customer, 1))[0]!;
    const hostKey = await hostKeyOfModem(t, port.IMEI);

    const agentDir = await mkdtemp(join(tmpdir(), 'cellport-graceful-agent-'));
    // An address of its own: agent-process and gateway-process tests run agents on 127.0.0.1 with the same ports.
    const proc = spawnAgent({
      serverUrl, hostKey, dataDir: agentDir, listenHost: AGENT_HOST, stdout: 'pipe',
      env: { LOG_LEVEL: 'info', AGENT_DRAIN_SECONDS: String(DRAIN_SECONDS) },
    });
    const agent = started(proc);
    try {
      const auth = Buffer.from(`${port.login}:${port.password}`).toString('base64');
      const download = async (onData?: (n: number) => void) => {
        const socket = connect(port.http_port, AGENT_HOST);
        socket.on('error', () => {});
        await once(socket, 'connect');
        socket.write(`GET http://127.0.0.1:${sitePort}/file HTTP/1.1\r\nHost: 127.0.0.1:${sitePort}\r\nProxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`);
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => { chunks.push(c); onData?.(chunks.reduce((n, b) => n + b.length, 0)); });
        await once(socket, 'close');
        const all = Buffer.concat(chunks);
        const headEnd = all.indexOf('\r\n\r\n');
        return { status: Number(all.subarray(9, 12).toString()), body: all.subarray(headEnd + 4) };
      };

      // The port serves once the agent has its state: wait for a first download to start, which holds mid-body.
      let halfway!: () => void;
      const atHalf = new Promise<void>((r) => { halfway = r; });
      // (Wrapped: resolving with the download's promise itself would wait for it to end.)
      const { inFlight } = await vi.waitFor(async () => {
        const started = await new Promise<{ inFlight: ReturnType<typeof download> } | null>((resolve, reject) => {
          const attempt = download((n) => { if (n > HALF) { halfway(); resolve({ inFlight: attempt }); } });
          attempt.then(() => resolve(null), reject);
        });
        if (!started) throw new Error('the port does not serve yet');
        return started;
      }, { timeout: 60_000, interval: 200 });
      await atHalf;

      proc.kill('SIGTERM');
      await agent.line(/stopping: no new connections/, 'the agent\'s drain line');
      await vi.waitFor(async () => {
        const status = await new Promise<string>((resolve) => {
          const s = connect(port.http_port, AGENT_HOST);
          s.once('connect', () => { s.destroy(); resolve('connected'); });
          s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
        });
        if (status !== 'ECONNREFUSED') throw new Error(`a new connection: ${status}`);
      }, { timeout: 30_000, interval: 50 });
      expect(proc.exitCode).toBeNull(); // the download holds the drain

      release();
      const done = await within(inFlight, DRAIN_SECONDS * 1000, 'the download completing within the drain time');
      expect(done.status).toBe(200);
      expect(done.body.length).toBe(2 * HALF);
      expect(done.body.subarray(HALF - 1, HALF + 1).toString()).toBe('ab');
      expect(await within(exited(proc), DRAIN_SECONDS * 1000, 'the agent exiting')).toBe(0);
      expect(agent.output()).toMatch(/stopped: traffic journaled on disk/);
    } finally {
      release();
      site.close();
      await rm(agentDir, { recursive: true, force: true });
    }
  }, 240_000);
});
