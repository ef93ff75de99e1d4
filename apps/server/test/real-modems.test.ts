import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
// The fake HiLink dongles and IP echo of the agent's own tests (test support; the server's code never imports the agent).
import { FakeHilink, startEchoServer } from '../../agent/src/runtime/drivers/hilink/fake-hilink.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { call, signedIn } from './console-helpers.js';
import { createCustomer, json } from './fixtures.js';
import { describeOnPostgres, type TestApp } from './helpers.js';
import { seedPortEnv } from './seed-ports.js';
import { getThroughProxy } from './proxy-get.js';
import { copyTemplateDatabase } from './template-db.js';
import { buyUsPorts, spawnAgent } from './agent-fixtures.js';

// Issue 15, "Done when" (first half), end to end: a stand-alone agent process with a modems file of two fake HiLink
// dongles registers them (the heartbeat's inventory), an operator adds both through the console API (POST
// /admin/hosts/:id/modems, nobody types an IMEI), a customer buys one from the balance, and a rotation through the
// customer API changes the IP that the echo server sees through the customer's proxy port.
// Second half (item 6): the bought dongle goes down, the agent's health checks (every second here) report it offline,
// and within the operator's replacement time (3 s here) the port moves to the other dongle with the same login and
// password; the customer is told, and the echo then sees the other dongle's IP through the port.

const IMEI_A = '867123456789012';
const IMEI_B = '867123456789029';

let t: TestApp;
let dropDatabase: (() => Promise<void>) | undefined;
let agent: ChildProcess | null = null;
let agentDir = '';
const cleanup: Array<() => Promise<unknown> | void> = [];

/** Waits (vi.waitFor, every 100 ms) until the probe gives a value; on time-out, the probe's last error or what was awaited. */
const until = <T>(probe: () => Promise<T | undefined>, what: string, timeout = 30_000) =>
  vi.waitFor(async () => {
    const value = await probe();
    if (value === undefined) throw new Error(`timed out waiting for ${what}`);
    return value;
  }, { timeout, interval: 100 });

describeOnPostgres('real modems end to end: a stand-alone agent with two fake HiLink dongles', () => {
  beforeAll(async () => {
    const template = inject('dbTemplate');
    if (template.kind !== 'postgres') throw new Error('needs PostgreSQL');
    const copy = await copyTemplateDatabase(template);
    dropDatabase = copy.drop;
    const config = loadConfig({
      NODE_ENV: 'test', CAPTCHA_PROVIDER: 'off', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: '/tmp/cellport-test',
      WEB_DIST: '/nonexistent', SESSION_SECRET: 'real-modems-test-secret-0123456789abcdef', MODEM_CONTROL: 'agent', ...await seedPortEnv(),
    });
    const database = await openDatabase({ databaseUrl: copy.url, dataDir: '', poolSize: 5 });
    const { app, ctx } = await buildApp({ config, database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    t = { app, ctx, config, close: async () => { await app.close(); await database.close(); } };
    await seedCatalog(ctx);
  }, 120_000);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    for (const fn of cleanup.splice(0).reverse()) await fn();
    await t?.close();
    if (agentDir) await rm(agentDir, { recursive: true, force: true });
    await dropDatabase?.();
  });

  it('registers the dongles, an operator adds them, a customer buys one, and a rotation changes the IP the echo sees', async () => {
    // Two dongles, each on its own loopback egress; the echo answers each one's public IP while it is connected.
    const one = new FakeHilink({ imei: IMEI_A, publicIp: '203.0.113.10', nextIps: ['203.0.113.11', '203.0.113.12'] });
    const two = new FakeHilink({ imei: IMEI_B, publicIp: '198.51.100.20', nextIps: ['198.51.100.21'] });
    await one.start();
    await two.start();
    cleanup.push(() => one.stop(), () => two.stop());
    const echo = await startEchoServer(new Map([
      ['127.0.0.11', () => (one.connection === 901 ? one.publicIp : null)],
      ['127.0.0.12', () => (two.connection === 901 ? two.publicIp : null)],
    ]));
    cleanup.push(() => echo.close());

    // The operator creates the host and issues its key in the console.
    const operator = await signedIn(t);
    const created = await call(t, operator.cookie, 'POST', '/api/v1/admin/hosts', { name: 'rack-7', address: '127.0.0.1' });
    expect(created.statusCode, created.body).toBe(200);
    const hostId = created.json().host.id as string;
    const key = (await call(t, operator.cookie, 'POST', `/api/v1/admin/hosts/${hostId}/key`)).json().key as string;

    // The host's agent, on its own, with a modems file (YAML) naming the two dongles.
    agentDir = await mkdtemp(join(tmpdir(), 'cellport-real-modems-'));
    const modemsFile = join(agentDir, 'modems.yaml');
    await writeFile(modemsFile, `modems:\n  - driver: hilink\n    name: slot-1\n    management: ${one.url}\n    egress: 127.0.0.11\n`
      + `  - driver: hilink\n    name: slot-2\n    management: ${two.url}\n    egress: 127.0.0.12\n`);
    agent = spawnAgent({
      serverUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, hostKey: key, dataDir: join(agentDir, 'data'),
      listenHost: '127.0.0.1',
      env: { AGENT_MODEMS: modemsFile, AGENT_IP_ECHO_URLS: echo.url, AGENT_HEALTH_INTERVAL_SECONDS: '1', AGENT_HEALTH_TIMEOUT_SECONDS: '5' },
    });

    // The console shows both as new on the host, with what the dongles say; nobody typed an IMEI.
    interface NewModem { imei: string; name: string | null; model: string | null; operator: string | null; networkType: string | null; extIp: string | null }
    const hostListed = async () => {
      const res = await call(t, operator.cookie, 'GET', '/api/v1/admin/hosts');
      return (res.json().items as Array<{ id: string; online: boolean; newModems: NewModem[]; modems: Array<{ imei: string; report: Record<string, unknown> | null }> }>)
        .find((h) => h.id === hostId)!;
    };
    const fresh = await until(async () => {
      const host = await hostListed();
      return host.newModems.length === 2 ? host : undefined;
    }, 'the agent to report both dongles');
    expect(fresh.online).toBe(true);
    expect(fresh.newModems).toEqual([
      expect.objectContaining({ imei: IMEI_A, name: 'slot-1', model: 'E3372h-320', operator: 'Vodafone DE', networkType: '4G', extIp: '203.0.113.10' }),
      expect.objectContaining({ imei: IMEI_B, name: 'slot-2', extIp: '198.51.100.20' }),
    ]);

    // The operator adds both: dedicated US ports of one carrier. Nothing else of that country is for sale.
    const us = await t.ctx.db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
    const carrier = await t.ctx.db.selectFrom('carriers').select('id').where('country_id', '=', us.id).orderBy('name').executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('modems').set({ retired: true }).where('country_id', '=', us.id).execute();
    const added: Array<{ imei: string; httpPort: number; socksPort: number }> = [];
    for (const imei of [IMEI_A, IMEI_B]) {
      const res = await call(t, operator.cookie, 'POST', `/api/v1/admin/hosts/${hostId}/modems`, { imei, countryId: us.id, carrierId: carrier.id, isShared: false });
      expect(res.statusCode, res.body).toBe(200);
      added.push(res.json().modem);
    }
    // Each got its own pair of ports on the host.
    expect(new Set(added.flatMap((m) => [m.httpPort, m.socksPort])).size).toBe(4);
    const known = await hostListed();
    expect(known.newModems).toEqual([]);
    expect(known.modems.find((m) => m.imei === IMEI_A)!.report).toMatchObject({ model: 'E3372h-320', extIp: '203.0.113.10' });

    // A customer buys one port from the balance.
    const customer = await createCustomer(t, 1000);
    const port = (await buyUsPorts(t, customer, 1, { carrier_id: carrier.id }))[0]!;
    expect([IMEI_A, IMEI_B]).toContain(port.IMEI);
    const dongle = port.IMEI === IMEI_A ? one : two;
    const before = dongle.publicIp;
    expect(port.ext_ip).toBe(before);

    // Through the customer's port the echo sees the dongle's public IP (once the agent serves the new modem).
    const seen = () => getThroughProxy({ host: '127.0.0.1', port: port.http_port, login: port.login, password: port.password }, echo.url);
    expect(await until(async () => {
      const r = await seen();
      return r.status === 200 ? r.body : undefined;
    }, 'the agent to serve the bought port')).toBe(before);

    // The customer rotates: the dongle reconnects, the agent measures the new IP through it, the customer gets it.
    const rotated = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/rotate`, ...json(customer.cookie) });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const after = dongle.publicIp;
    expect(after).not.toBe(before);
    expect(rotated.json()).toMatchObject({ old_ip: before, new_ip: after });
    expect(await seen()).toEqual({ status: 200, body: after });
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(customer.cookie) });
    expect(listed.json()[0]).toMatchObject({ IMEI: port.IMEI, ext_ip: after });

    // The operator replaces a port whose modem has been offline for 3 s (a short setting for the test).
    const setting = await call(t, operator.cookie, 'PATCH', '/api/v1/admin/settings', { replacementAfterMinutes: 0.05 });
    expect(setting.statusCode, setting.body).toBe(200);
    // The bought dongle goes away: its API refuses connections and nothing gets through it.
    const other = dongle === one ? two : one;
    dongle.connection = 902;
    await dongle.down();
    const wentOffline = await until(async () => {
      const m = await t.ctx.db.selectFrom('modems').select(['health', 'health_changed_at']).where('imei', '=', port.IMEI).executeTakeFirstOrThrow();
      return m.health === 'offline' ? m.health_changed_at : undefined;
    }, 'the agent to report the dongle offline');
    // The replacement job (run as each instance's job runner would) moves the port once the 3 s have passed.
    const moved = await until(async () => {
      await t.app.jobs.runDueJobs();
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(customer.cookie) });
      const now = (res.json() as Array<{ _id: string; IMEI: string; http_port: number; login: string; password: string; ext_ip: string; expiresAt: string }>)
        .find((p) => p._id === port._id);
      return now && now.IMEI !== port.IMEI ? now : undefined;
    }, 'the port to move to the other dongle');
    expect(Date.now() - wentOffline!.getTime()).toBeGreaterThanOrEqual(3_000);
    expect(moved).toMatchObject({ IMEI: port.IMEI === IMEI_A ? IMEI_B : IMEI_A, login: port.login, password: port.password, ext_ip: other.publicIp });
    const old = await t.ctx.db.selectFrom('modems').select('maintenance_since').where('imei', '=', port.IMEI).executeTakeFirstOrThrow();
    expect(old.maintenance_since).not.toBeNull();
    const told = await t.ctx.db.selectFrom('notifications').select('text_key').where('user_id', '=', customer.id).execute();
    expect(told.map((n) => n.text_key)).toContain('port_replaced_offline');
    // The agent serves the port on the other dongle with the same credentials: the echo sees that dongle's IP.
    expect(await until(async () => {
      const r = await getThroughProxy({ host: '127.0.0.1', port: moved.http_port, login: port.login, password: port.password }, echo.url).catch(() => null);
      return r?.status === 200 && r.body === other.publicIp ? r.body : undefined;
    }, 'traffic through the port to leave from the other dongle')).toBe(other.publicIp);
  }, 180_000);
});
