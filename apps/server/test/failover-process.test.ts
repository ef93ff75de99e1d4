import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The fake HiLink dongles of the agent's own tests (test support; the server's code never imports the agent).
import { FakeHilink, startEchoServer } from '../../agent/src/runtime/drivers/hilink/fake-hilink.js';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { call, signedIn } from './console-helpers.js';
import { createCustomer, portsAfterAnnouncements } from './fixtures.js';
import { buyUsPorts, spawnAgent } from './agent-fixtures.js';
import { buildTestApp, type TestApp } from './helpers.js';
import { watched } from './server-process.js';
import { until } from './wait.js';

// Issue 28, item 10 (decisions 036, 045): a failover must not make the customer reconfigure their clients. A stand-alone
// agent process drives two fake HiLink dongles on one host; a customer's port is on dongle A and their curl goes
// through the host's port. Dongle A's API goes away (unplugged): the agent's health checks report it offline, the
// server moves the port to dongle B after the operator's setting (3 s here), and the same curl — same host, same
// port, same credentials, over HTTP and SOCKS5 — now leaves from dongle B.

const IMEI_A = '867123456789051';
const IMEI_B = '867123456789069';
const AGENT_HOST = '127.0.0.94';
const EGRESS = { [IMEI_A]: '127.0.0.95', [IMEI_B]: '127.0.0.96' } as Record<string, string>;
const run = promisify(execFile);

let t: TestApp;
let dir = '';
let site: Server;
let siteUrl = '';
let serverUrl = '';
const dongles = {
  [IMEI_A]: new FakeHilink({ imei: IMEI_A, publicIp: EGRESS[IMEI_A]!, switchMs: 20, rebootMs: 100 }),
  [IMEI_B]: new FakeHilink({ imei: IMEI_B, publicIp: EGRESS[IMEI_B]!, switchMs: 20, rebootMs: 100 }),
} as Record<string, FakeHilink>;
const children: ChildProcess[] = [];
/** Dongle A unplugged: its API and its data path are gone (the echo no longer answers through it). */
let unplugged = false;
let echo: Awaited<ReturnType<typeof startEchoServer>> | undefined;

/** Waits (vi.waitFor, every 100 ms) until the probe gives a value; on time-out, the probe's last error or what was awaited. */
/** The customer's curl through their proxy (`http` or `socks5`), as they would run it: the body, or the error. */
async function curl(scheme: 'http' | 'socks5', port: number, login: string, password: string): Promise<string> {
  try {
    const { stdout } = await run('curl', ['-sS', '--max-time', '5', '-x', `${scheme}://${AGENT_HOST}:${port}`, '-U', `${login}:${password}`, siteUrl]);
    return stdout.trim();
  } catch (err) {
    return `failed: ${String((err as { stderr?: string }).stderr ?? err).trim()}`;
  }
}

describe('a failover to another modem of the host', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cellport-failover-'));
    t = await buildTestApp({ MODEM_CONTROL: 'agent', REPLACEMENT_AFTER_MINUTES: '0.05' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await seedCatalog(t.ctx);
    for (const d of Object.values(dongles)) await d.start();
    // The IP echo the agent measures each dongle with: it answers through a dongle while it is plugged in.
    echo = await startEchoServer(new Map([
      [EGRESS[IMEI_A]!, () => (unplugged ? null : EGRESS[IMEI_A]!)],
      [EGRESS[IMEI_B]!, () => EGRESS[IMEI_B]!],
    ]));
    // The customer's target: answers the address the request came from (the modem's egress).
    site = createServer((req, res) => res.end(req.socket.remoteAddress?.replace('::ffff:', '') ?? ''));
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  }, 180_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of Object.values(dongles)) await d.stop();
    site?.close();
    await echo?.close();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the customer\'s curl keeps working through the same host and ports, now leaving from the new modem', async () => {
    // The operator's host and key; its agent with a modems file of the two dongles, health checked every second.
    const operator = await signedIn(t);
    const created = await call(t, operator.cookie, 'POST', '/api/v1/admin/hosts', { name: 'rack-failover', address: AGENT_HOST });
    expect(created.statusCode, created.body).toBe(200);
    const hostId = created.json().host.id as string;
    const key = (await call(t, operator.cookie, 'POST', `/api/v1/admin/hosts/${hostId}/key`)).json().key as string;
    const modemsFile = join(dir, 'modems.yaml');
    await writeFile(modemsFile, [IMEI_A, IMEI_B].map((imei, i) => `  - driver: hilink\n    name: slot-${i + 1}\n    management: ${dongles[imei]!.url}\n    egress: ${EGRESS[imei]}\n`)
      .join('').replace(/^/, 'modems:\n'));
    const agentProc = spawnAgent({
      serverUrl, hostKey: key, dataDir: join(dir, 'agent'), listenHost: AGENT_HOST, stdout: 'pipe',
      env: { AGENT_MODEMS: modemsFile, AGENT_IP_ECHO_URLS: echo!.url, AGENT_HEALTH_INTERVAL_SECONDS: '1', AGENT_HEALTH_TIMEOUT_SECONDS: '1', LOG_LEVEL: 'info' },
    });
    children.push(agentProc);
    const agent = watched(agentProc);

    // Both dongles reported and adopted (the only US stock left), and one port sold: on dongle A (the first by IMEI).
    await until(async () => {
      const res = await call(t, operator.cookie, 'GET', '/api/v1/admin/hosts');
      const host = (res.json().items as Array<{ id: string; newModems: unknown[] }>).find((h) => h.id === hostId);
      return host?.newModems.length === 2 ? true : undefined;
    }, 'the agent to report both dongles');
    const us = await t.ctx.db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
    const carrier = await t.ctx.db.selectFrom('carriers').select('id').where('country_id', '=', us.id).orderBy('name').executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('modems').set({ retired: true }).where('country_id', '=', us.id).execute();
    for (const imei of [IMEI_A, IMEI_B]) {
      const res = await call(t, operator.cookie, 'POST', `/api/v1/admin/hosts/${hostId}/modems`, { imei, countryId: us.id, carrierId: carrier.id, isShared: false });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Dongle B must be healthy by the agent's own checks to be a replacement (as it would be in a farm).
    await until(async () => {
      const rows = await t.ctx.db.selectFrom('modems').select('health').where('host_id', '=', hostId).execute();
      return rows.length === 2 && rows.every((m) => m.health === 'online') ? true : undefined;
    }, 'both dongles healthy');
    const customer = await createCustomer(t, 1000);
    const [bought] = await buyUsPorts(t, customer, 1, { carrier_id: carrier.id });
    expect(bought!.IMEI).toBe(IMEI_A);
    // The port's own listening ports (decision 045): its modem's numbers, where it was sold.
    const portRow = await t.ctx.db.selectFrom('ports').select(['http_port', 'socks_port']).where('id', '=', bought!._id).executeTakeFirstOrThrow();
    const [httpPort, socksPort] = [portRow.http_port!, portRow.socks_port!];
    expect(await until(async () => {
      const body = await curl('http', httpPort, bought!.login, bought!.password);
      return body === EGRESS[IMEI_A] ? body : undefined;
    }, 'the port to serve from dongle A')).toBe(EGRESS[IMEI_A]);
    expect(await curl('socks5', socksPort, bought!.login, bought!.password)).toBe(EGRESS[IMEI_A]);

    // Dongle A is unplugged: its API and its data path go away. The agent reports it offline; after 3 s offline the job queue
    // moves the port (the test drives the queue's turns instead of waiting for its poll).
    unplugged = true;
    await dongles[IMEI_A]!.down();
    const moved = await until(async () => {
      await t.app.jobs.runDueJobs();
      const row = await t.ctx.db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
        .select(['m.imei', 'p.http_port', 'p.socks_port']).where('p.id', '=', bought!._id).executeTakeFirstOrThrow();
      return row.imei === IMEI_B ? row : undefined;
    }, 'the port to move to dongle B').catch(async (err: unknown) => {
      const modems = await t.ctx.db.selectFrom('modems').select(['imei', 'online', 'health', 'health_reason', 'health_changed_at', 'maintenance_since']).where('host_id', '=', hostId).execute();
      throw new Error(`${String(err)}; modems: ${JSON.stringify(modems)}; agent: ${agent.output().slice(-3000)}`);
    });
    // The port's address stayed: it kept its own ports, now leading to dongle B.
    expect([moved.http_port, moved.socks_port]).toEqual([httpPort, socksPort]);

    // The same curl, unchanged, now leaves from dongle B, over HTTP and SOCKS5.
    expect(await until(async () => {
      const body = await curl('http', httpPort, bought!.login, bought!.password);
      return body === EGRESS[IMEI_B] ? body : undefined;
    }, 'the same address to serve from dongle B')).toBe(EGRESS[IMEI_B]);
    expect(await curl('socks5', socksPort, bought!.login, bought!.password)).toBe(EGRESS[IMEI_B]);
    // The agent serves the port on its own ports, none offline for a port it could not open.
    expect(agent.output()).not.toMatch(/is already in use/);
    const listed = await portsAfterAnnouncements<{ _id: string; http_port: number; socks_port: number; IMEI: string }>(t, customer.cookie);
    const mine = listed.find((p) => p._id === bought!._id);
    expect(mine).toMatchObject({ http_port: httpPort, socks_port: socksPort, IMEI: IMEI_B });
    const told = await t.ctx.db.selectFrom('notifications').select(['text_key', 'params']).where('user_id', '=', customer.id)
      .where('text_key', '=', 'port_replaced_offline').execute();
    expect(told).toEqual([expect.objectContaining({ params: expect.objectContaining({ cause: 'address_kept', httpPort }) })]);
  }, 240_000);
});
