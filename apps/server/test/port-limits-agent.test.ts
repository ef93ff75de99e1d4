import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustomer, json, seedTestCatalog, type Customer } from './fixtures.js';
import { buildTestApp, type TestApp } from './helpers.js';
import { hostKeyOfModem, spawnAgent } from './agent-fixtures.js';

// Issue 18, item 3, end to end: the stand-alone agent process serves a port whose tariff has a monthly quota. The
// traffic it reports takes the port past 80 % (one notification) and past 100 % (one more); the server's new desired
// state reaches the agent, which then refuses the port with HTTP 403 saying why. Months already partly used are set
// up by writing the port's month row, so a few hundred kilobytes through the proxy cross each threshold.

/**
 * The agent's ports listen on an address of their own: agent-process.test.ts serves the same seeded host's port
 * numbers on 127.0.0.1, and the two files may run at the same time.
 */
const LISTEN = '127.0.0.4';
const GB = 1_000_000_000;
let t: TestApp;
let agent: ChildProcess | null = null;
let agentDir = '';
let site: Server;
let sitePort = 0;
let customer: Customer;
let proxy: { httpPort: number; login: string; password: string; portId: string };

async function throughProxy(path = '/'): Promise<{ status: number; body: string }> {
  const socket = connect(proxy.httpPort, LISTEN);
  await once(socket, 'connect');
  const auth = Buffer.from(`${proxy.login}:${proxy.password}`).toString('base64');
  socket.write(`GET http://127.0.0.1:${sitePort}${path} HTTP/1.1\r\nHost: 127.0.0.1:${sitePort}\r\nProxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const text = Buffer.concat(chunks).toString('latin1');
  return { status: Number(text.slice(9, 12)), body: text.split('\r\n\r\n')[1] ?? '' };
}

const until = <T>(probe: () => Promise<T | undefined>, what: string, timeout = 30_000) =>
  vi.waitFor(async () => {
    const value = await probe();
    if (value === undefined) throw new Error(`timed out waiting for ${what}`);
    return value;
  }, { timeout, interval: 100 });

const told = async () => (await t.ctx.db.selectFrom('notifications').select('text_key')
  .where('user_id', '=', customer.id).where('text_key', 'like', 'quota_%').orderBy('created_at').execute()).map((n) => n.text_key);
const monthBytes = async () => BigInt((await t.ctx.db.selectFrom('port_traffic_months').select('bytes').where('port_id', '=', proxy.portId)
  .executeTakeFirst())?.bytes ?? 0);

describe('a monthly quota with the agent process', () => {
  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/200k') return void res.end(Buffer.alloc(200_000, 120));
      res.end('ok');
    });
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    sitePort = (site.address() as AddressInfo).port;

    t = await buildTestApp({ MODEM_CONTROL: 'agent' });
    const cat = await seedTestCatalog(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const serverPort = (t.app.server.address() as AddressInfo).port;
    await t.ctx.db.updateTable('tariffs').set({ monthly_quota_gb: 1, over_quota: 'block' }).where('id', '=', cat.dedicatedMonth.id).execute();
    customer = await createCustomer(t, 1000);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(customer.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const port = (bought.json() as { data: { modems: Array<{ _id: string; IMEI: string; http_port: number; login: string; password: string }> } }).data.modems[0]!;
    proxy = { httpPort: port.http_port, login: port.login, password: port.password, portId: port._id };
    const hostKey = await hostKeyOfModem(t, port.IMEI);

    agentDir = await mkdtemp(join(tmpdir(), 'cellport-limits-agent-'));
    agent = spawnAgent({
      serverUrl: `http://127.0.0.1:${serverPort}`, hostKey, dataDir: agentDir, listenHost: LISTEN,
      env: { AGENT_TRAFFIC_REPORT_SECONDS: '1' },
    });
    await until(async () => ((await throughProxy()).status === 200 ? true : undefined), 'the port to carry traffic');
  }, 120_000);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    await t?.close();
    site?.close();
    if (agentDir) await rm(agentDir, { recursive: true, force: true });
  });

  it('notifies at 80 % and at 100 % once each, then the agent refuses the port saying its month\'s traffic is used up', async () => {
    // Everything reported so far, then the month as if 0.8 GB less 100 kB had been used.
    await until(async () => ((await monthBytes()) > 0n ? true : undefined), 'the first requests to be counted');
    await sql`update port_traffic_months set bytes = ${String(0.8 * GB - 100_000)} where port_id = ${proxy.portId}`.execute(t.ctx.db);
    expect((await throughProxy('/200k')).status).toBe(200);
    await until(async () => ((await told()).length === 1 ? true : undefined), 'the 80 % notification');
    expect(await told()).toEqual(['quota_warning']);
    expect((await throughProxy('/200k')).status).toBe(200); // still under 100 %, told once

    await sql`update port_traffic_months set bytes = ${String(GB - 100_000)} where port_id = ${proxy.portId}`.execute(t.ctx.db);
    expect((await throughProxy('/200k')).status).toBe(200);
    const refused = await until(async () => {
      const r = await throughProxy();
      return r.status === 403 ? r : undefined;
    }, 'the agent to refuse the port');
    expect(refused.body).toMatch(/used up its traffic for this month/);
    expect(await told()).toEqual(['quota_warning', 'quota_reached']);
    // Refused requests move nothing: no further batches, no further notification.
    expect((await throughProxy()).status).toBe(403);
    expect(await told()).toEqual(['quota_warning', 'quota_reached']);
  }, 90_000);
});
