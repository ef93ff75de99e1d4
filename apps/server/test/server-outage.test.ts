import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
// The fake HiLink dongles of the agent's own tests (test support; the server's code never imports the agent).
import { FakeHilink } from '../../agent/src/runtime/drivers/hilink/fake-hilink.js';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { call, signedIn } from './console-helpers.js';
import { createCustomer } from './fixtures.js';
import { buyUsPorts, spawnAgent, type BoughtPort } from './agent-fixtures.js';
import { describeOnPostgres, type TestApp } from './helpers.js';
import { getThroughProxy } from './proxy-get.js';
import { serverProcessEnv, spawnServer, watched, type Watched } from './server-process.js';
import { openProcessTestWorld, type ProcessTestWorld } from './process-test-world.js';
import { until } from './wait.js';

// Issue 28, items 2 and 3: a farm keeps serving, untouched, while the server is down. The server runs as its own
// process on PostgreSQL and is the agent's only IP echo (the default, /api/v1/ip); a stand-alone agent drives two fake
// HiLink dongles, checks their health every second and serves a customer's two ports, one of them busy. The server
// is killed (SIGKILL) for longer than the health checks' failure threshold and than HOST_OFFLINE_AFTER_SECONDS (2 s
// here): no dongle is reconnected or rebooted, the busy port never fails a request, and after the server starts again
// on the same database no customer is told their proxy went offline.

const SECRET = 'server-outage-test-secret-0123456789abcdef';
const IMEI_A = '867123456789036';
const IMEI_B = '867123456789043';
const AGENT_HOST = '127.0.0.93';
const EGRESS = { [IMEI_A]: '127.0.0.91', [IMEI_B]: '127.0.0.92' } as Record<string, string>;

let world: ProcessTestWorld | undefined;
let dbUrl = '';
let t: TestApp;
let dir = '';
let site: Server;
let siteUrl = '';
const dongles = {
  [IMEI_A]: new FakeHilink({ imei: IMEI_A, publicIp: EGRESS[IMEI_A]!, nextIps: ['198.51.100.1'], switchMs: 20, rebootMs: 100 }),
  [IMEI_B]: new FakeHilink({ imei: IMEI_B, publicIp: EGRESS[IMEI_B]!, nextIps: ['198.51.100.2'], switchMs: 20, rebootMs: 100 }),
} as Record<string, FakeHilink>;
const children: ChildProcess[] = [];

/** The server process: health of hosts judged after 2 s of silence, swept every 100 ms. */
const serverEnv = (port: number) => serverProcessEnv({ dbUrl, secret: SECRET, dataDir: dir }, {
  LOG_PRETTY: 'false', PORT: String(port), HOST_OFFLINE_AFTER_SECONDS: '2', HOST_SWEEP_MS: '100', MODEM_CONTROL: 'agent',
});

const started = (proc: ChildProcess) => { children.push(proc); return watched(proc); };

/** Waits (vi.waitFor, every 100 ms) until the probe gives a value; on time-out, the probe's last error or what was awaited. */
/** The agent's health rounds (its debug line) in `output`, with how many modems failed and whether that was held back. */
const rounds = (output: string) => output.split('\n').filter((l) => l.includes('"msg":"health round"'))
  .map((l) => JSON.parse(l) as { failing: number; heldBack?: string });

async function startServerProcess(port: number): Promise<{ proc: ChildProcess; out: Watched; port: number }> {
  const proc = spawnServer(serverEnv(port));
  const out = started(proc);
  const line = await out.line(/Server listening at http:\/\/127\.0\.0\.1:\d+/, 'the server listening');
  return { proc, out, port: Number(/:(\d+)$/.exec(line)![1]) };
}

describeOnPostgres('a server outage under customer traffic', () => {
  beforeAll(async () => {
    // The catalog, the operator's console calls and the customer's purchase run in-process on the same database (an
    // instance no agent connects to, which never judges hosts in this test's time).
    world = await openProcessTestWorld({
      name: 'outage',
      env: (paths) => { dbUrl = paths.dbUrl; dir = paths.dataDir; return { ...serverEnv(0), HOST_OFFLINE_AFTER_SECONDS: '3600' }; },
    });
    ({ t } = world);
    await seedCatalog(t.ctx);
    for (const d of Object.values(dongles)) await d.start();
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
    await world?.cleanup();
  });

  it('the agent keeps serving and touches no modem while the server is killed; after it starts again nobody is told of an outage', async () => {
    let server = await startServerProcess(0);

    // The operator's host and key; its agent with a modems file of the two dongles and the default echo (the server).
    const operator = await signedIn(t);
    const created = await call(t, operator.cookie, 'POST', '/api/v1/admin/hosts', { name: 'rack-9', address: AGENT_HOST });
    expect(created.statusCode, created.body).toBe(200);
    const hostId = created.json().host.id as string;
    const key = (await call(t, operator.cookie, 'POST', `/api/v1/admin/hosts/${hostId}/key`)).json().key as string;
    const modemsFile = join(dir, 'modems.yaml');
    await writeFile(modemsFile, [IMEI_A, IMEI_B].map((imei, i) => `  - driver: hilink\n    name: slot-${i + 1}\n    management: ${dongles[imei]!.url}\n    egress: ${EGRESS[imei]}\n`)
      .join('').replace(/^/, 'modems:\n'));
    const agent = started(spawnAgent({
      serverUrl: `http://127.0.0.1:${server.port}`, hostKey: key, dataDir: join(dir, 'agent'), listenHost: AGENT_HOST, stdout: 'pipe',
      env: { AGENT_MODEMS: modemsFile, AGENT_HEALTH_INTERVAL_SECONDS: '1', AGENT_HEALTH_TIMEOUT_SECONDS: '1', LOG_LEVEL: 'debug' },
    }));

    // Both dongles reported, adopted, and sold to one customer: a port on each.
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
    const customer = await createCustomer(t, 1000);
    const bought = await buyUsPorts(t, customer, 2, { carrier_id: carrier.id });
    const port = (imei: string) => bought.find((p) => p.IMEI === imei)!;
    const get = (p: BoughtPort) => getThroughProxy({ host: AGENT_HOST, port: p.http_port, login: p.login, password: p.password }, siteUrl)
      .catch((err: unknown) => ({ status: 0, body: String(err) }));
    for (const imei of [IMEI_A, IMEI_B]) {
      expect(await until(async () => {
        const r = await get(port(imei));
        return r.status === 200 ? r.body : undefined;
      }, `the port on ${imei} to serve`)).toBe(EGRESS[imei]);
    }

    // A customer keeps using the port on dongle A (their requests paced as a client's would be); B is idle.
    const traffic = { ok: 0, failed: [] as string[], running: true };
    const customerLoop = (async () => {
      while (traffic.running) {
        const r = await get(port(IMEI_A));
        if (r.status === 200 && r.body === EGRESS[IMEI_A]) traffic.ok++;
        else traffic.failed.push(`${r.status} ${r.body}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    // Healthy rounds first: both modems pass.
    await until(() => (rounds(agent.output()).filter((r) => r.failing === 0).length >= 2 ? true : undefined), 'two healthy rounds');

    // The server is killed: no goodbye, no closed sockets. The agent's checks fail (the echo is the server); four
    // rounds with a failing modem are twice the failures that start the recovery ladder.
    const from = agent.output().length;
    const okBefore = traffic.ok;
    server.proc.kill('SIGKILL');
    await once(server.proc, 'exit');
    await until(() => (rounds(agent.output().slice(from)).filter((r) => r.failing > 0).length >= 4 ? true : undefined), 'four failing health rounds during the outage');
    for (const d of Object.values(dongles)) expect({ imei: d.options.imei, reconnects: d.reconnects, reboots: d.reboots, ip: d.publicIp })
      .toEqual({ imei: d.options.imei, reconnects: 0, reboots: 0, ip: EGRESS[d.options.imei] });
    // Dongle B (idle) fails, A carries traffic; B's failure is held back: no echo answers the host either.
    const failing = rounds(agent.output().slice(from)).filter((r) => r.failing > 0);
    expect(failing.map((r) => r.heldBack)).toEqual(failing.map(() => expect.stringMatching(/no IP echo answers the host itself/)));
    expect(agent.output().slice(from)).toMatch(/modem checks fail, but not because of the modems/);
    expect(traffic.ok).toBeGreaterThan(okBefore);
    expect(await get(port(IMEI_B))).toEqual({ status: 200, body: EGRESS[IMEI_B] });

    // The server starts again on the same database and port; the hosts' last_seen_at is older than
    // HOST_OFFLINE_AFTER_SECONDS, but that silence was the server's own.
    const restartedAt = new Date();
    server = await startServerProcess(server.port);
    await until(async () => {
      const host = await t.ctx.db.selectFrom('hosts').select('last_seen_at').where('id', '=', hostId).executeTakeFirstOrThrow();
      return host.last_seen_at && host.last_seen_at > restartedAt ? true : undefined;
    }, 'the agent to reconnect');
    // Both modems online again by their own checks (the echo answers), as the agent reports them.
    await until(async () => {
      const modems = await t.ctx.db.selectFrom('modems').select(['health', 'online']).where('host_id', '=', hostId).execute();
      return modems.length === 2 && modems.every((m) => m.online && m.health === 'online') ? true : undefined;
    }, 'both modems reported online');
    traffic.running = false;
    await customerLoop;

    expect(traffic.failed).toEqual([]);
    for (const d of Object.values(dongles)) expect([d.reconnects, d.reboots]).toEqual([0, 0]);
    const told = await t.ctx.db.selectFrom('notifications').select('text_key').where('user_id', '=', customer.id).execute();
    expect(told.map((n) => n.text_key).filter((k) => k === 'modem_down' || k === 'modem_up')).toEqual([]);
    const health = await t.ctx.db.selectFrom('modems').select(['health_reason']).where('host_id', '=', hostId).execute();
    expect(health.map((m) => m.health_reason)).toEqual([null, null]);
  }, 240_000);
});
