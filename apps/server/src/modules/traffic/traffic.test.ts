import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { sql } from 'kysely';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';
import { issueHostKey } from '../hosts/index.js';

let t: TestApp;
let alice: Customer;
let bob: Customer;
let port: { _id: string; modem_name: string; IMEI: string };
let agent: Socket;
let otherAgent: Socket;
const sockets: Socket[] = [];
const HOUR = 3_600_000;
// Whole hours in the past: after the port was bought (its created_at is moved back below).
const base = Math.floor(Date.now() / HOUR) * HOUR - 30 * HOUR;
const at = (h: number) => new Date(base + h * HOUR).toISOString();

/** A proxy host's agent on the host protocol, the only way traffic comes in. */
async function hostAgent(url: string, hostId: string): Promise<Socket> {
  const key = await issueHostKey(t.ctx.db, hostId);
  const socket = connect(url, { path: HOST_PROTOCOL.path, transports: ['websocket'], auth: { key }, reconnection: false, forceNew: true });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('connect_error', reject); });
  return socket;
}

beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'agent' });
  const cat = await seedTestCatalog(t);
  alice = await createCustomer(t, 1000);
  bob = await createCustomer(t, 1000);
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(alice.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  port = bought.json().data.modems[0];
  await t.ctx.db.updateTable('ports').set({ created_at: new Date(base - HOUR) } as never).where('id', '=', port._id).execute();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;
  const modem = await t.ctx.db.selectFrom('modems').select('host_id').where('imei', '=', port.IMEI).executeTakeFirstOrThrow();
  agent = await hostAgent(url, modem.host_id);
  const other = await t.ctx.db.selectFrom('hosts').select('id').where('id', '!=', modem.host_id).executeTakeFirstOrThrow();
  otherAgent = await hostAgent(url, other.id);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

interface Sample { portId: string; intervalStart: string; bytesIn: string; bytesOut: string }
const report = (socket: Socket, samples: Sample[], batchId: string = randomUUID()) =>
  socket.timeout(15_000).emitWithAck('traffic', { batchId, samples }) as Promise<Record<string, unknown>>;
const sample = (h: number, bytes = '1000', portId = port._id): Sample => ({ portId, intervalStart: at(h), bytesIn: bytes, bytesOut: '10' });
const samplesOf = (portId: string) => t.ctx.db.selectFrom('traffic_samples').selectAll().where('port_id', '=', portId).execute();
const monthOf = async (portId: string) => (await t.ctx.db.selectFrom('port_traffic_months').select('bytes').where('port_id', '=', portId).execute())
  .reduce((sum, r) => sum + BigInt(r.bytes), 0n);

describe('traffic reports (host protocol)', () => {
  it('stores a batch once: a resend counts nothing, and another host cannot report this host\'s port', async () => {
    const batchId = randomUUID();
    expect(await report(agent, [sample(0), sample(1), sample(2)], batchId)).toEqual({ batchId, accepted: 3, duplicate: false });
    expect(await report(agent, [sample(0), sample(1), sample(2)], batchId)).toEqual({ batchId, accepted: 0, duplicate: true });
    expect(await report(agent, [sample(3)])).toMatchObject({ accepted: 1, duplicate: false });
    expect(await report(otherAgent, [sample(5)])).toMatchObject({ accepted: 0, refused: 1 });
    const rows = await samplesOf(port._id);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.user_id))).toEqual(new Set([alice.id]));
  });

  it('the same batch sent twice at once is stored once (PostgreSQL: concurrent transactions)', async () => {
    const hours = [10, 11, 12, 13, 14, 15];
    const batchId = randomUUID();
    const results = await Promise.all([0, 1, 2].map(() => report(agent, hours.map((h) => sample(h)), batchId)));
    expect(results.reduce((sum, r) => sum + (r.accepted as number), 0)).toBe(6);
    expect(results.filter((r) => r.duplicate)).toHaveLength(2);
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from traffic_samples where interval_start >= ${new Date(base + 10 * HOUR)} and interval_start <= ${new Date(base + 15 * HOUR)}`.execute(t.ctx.db);
    expect(rows[0]!.n).toBe('6');
  });

  it('refuses, each on its own, samples of a released port after its release and samples older than HOST_TRAFFIC_MAX_AGE_HOURS; the rest count', async () => {
    const before = await monthOf(port._id);
    // Two days and an hour ago: older than the default 48 hours, though the port was held then.
    const old = new Date(Math.floor(Date.now() / HOUR) * HOUR - 49 * HOUR).toISOString();
    const ack = await report(agent, [{ ...sample(25), intervalStart: old }, sample(25, '5')]);
    expect(ack).toMatchObject({ accepted: 1, refused: 1 });

    // A customer's released port: what it carried before its release still counts, nothing after it does.
    const carol = await createCustomer(t, 0);
    const released = await t.ctx.db.insertInto('ports').values({
      user_id: carol.id, modem_id: (await t.ctx.db.selectFrom('modems').select('id').where('imei', '=', port.IMEI).executeTakeFirstOrThrow()).id,
      tariff_id: (await t.ctx.db.selectFrom('ports').select('tariff_id').where('id', '=', port._id).executeTakeFirstOrThrow()).tariff_id,
      is_shared: false, name: 'gone', proxy_login: `g${Date.now()}`, proxy_password: 'secret-1', whitelist: '[]',
      rotation_nonce: 'n', rotation_token_hash: randomUUID(), expires_at: new Date(base + 20 * HOUR),
      created_at: new Date(base), status: 'released', released_at: new Date(base + 20 * HOUR),
    } as never).returning('id').executeTakeFirstOrThrow();
    const afterRelease = await report(agent, [sample(19, '7', released.id), sample(21, '1000000', released.id), sample(22, '1000000', released.id)]);
    expect(afterRelease).toMatchObject({ accepted: 1, refused: 2 });
    expect((await samplesOf(released.id)).map((r) => r.bytes_in)).toEqual([7n]);
    expect(await monthOf(released.id)).toBe(17n);
    expect(await monthOf(port._id)).toBe(before + 15n);
  });

  it('refuses a count out of range on its own and never fails a batch on an overflowing sum (no retry loop)', async () => {
    const huge = '9223372036854775807';
    const tooBig = String(HOST_PROTOCOL.trafficSampleMaxBytes + 1);
    const ack = await report(agent, [sample(26, huge), sample(26, tooBig), sample(27, '3')]);
    expect(ack).toMatchObject({ accepted: 1, refused: 2, duplicate: false });
    expect((await samplesOf(port._id)).filter((r) => r.interval_start.getTime() === base + 26 * HOUR)).toEqual([]);

    // A month already near bigint's limit (a host that kept reporting the ceiling): the sum saturates, the batch is taken.
    await sql`update port_traffic_months set bytes = 9223372036854775000 where port_id = ${port._id}`.execute(t.ctx.db);
    await sql`update traffic_samples set bytes_in = 9223372036854775000 where port_id = ${port._id} and interval_start = ${new Date(base + 27 * HOUR)}`.execute(t.ctx.db);
    const max = String(HOST_PROTOCOL.trafficSampleMaxBytes);
    expect(await report(agent, [sample(27, max), sample(28, max)])).toMatchObject({ accepted: 2, duplicate: false });
    expect(await monthOf(port._id)).toBe(9223372036854775807n);
    const row = (await samplesOf(port._id)).find((r) => r.interval_start.getTime() === base + 27 * HOUR);
    expect(row?.bytes_in).toBe(9223372036854775807n);
    // The port keeps its other counts as they were; the queries below read hours 0–23 only.
  });
});

describe('traffic queries', () => {
  const q = (c: Customer, query: string, url = '/api/v1/traffic') => t.app.inject({ method: 'GET', url: `${url}?${query}`, ...json(c.cookie) });
  const range = `from=${encodeURIComponent(at(0))}&to=${encodeURIComponent(at(24))}`;

  it('sums per port by hour and by day, with totals as strings', async () => {
    const hourly = (await q(alice, `${range}&granularity=hour`)).json();
    expect(hourly.data).toHaveLength(10);
    expect(hourly.data[0]).toEqual({ port_id: port._id, modem_name: port.modem_name, bucket: at(0), bytesIn: '1000', bytesOut: '10' });
    expect(hourly.totals).toEqual({ bytesIn: '10000', bytesOut: '100' });
    const daily = (await q(alice, `${range}&granularity=day&port_id=${port._id}`)).json();
    expect(daily.totals).toEqual(hourly.totals);
    expect(daily.data.every((r: { bucket: string }) => r.bucket.endsWith('T00:00:00.000Z'))).toBe(true);
  });

  it('another customer sees nothing of it, even naming the port', async () => {
    expect((await q(bob, range)).json()).toEqual({ data: [], totals: { bytesIn: '0', bytesOut: '0' } });
    expect((await q(bob, `${range}&port_id=${port._id}`)).json().data).toEqual([]);
    expect((await q(bob, range, '/api/v1/traffic.csv')).body).toBe('port_id,modem_name,bucket,bytes_in,bytes_out\r\n');
  });

  it('exports CSV', async () => {
    const res = await q(alice, `${range}&granularity=day`, '/api/v1/traffic.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="traffic-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('port_id,modem_name,bucket,bytes_in,bytes_out');
    const sum = lines.slice(1).reduce((s, l) => s + BigInt(l.split(',').at(-2)!), 0n);
    expect(sum).toBe(10000n);
  });

  it('refuses bad ranges and parameters with 400, and visitors with 401', async () => {
    expect((await q(alice, `from=${encodeURIComponent(at(5))}&to=${encodeURIComponent(at(1))}`)).json().code).toBe('TRAFFIC_RANGE');
    expect((await q(alice, `from=2020-01-01T00:00:00Z&to=2021-01-01T00:00:00Z`)).statusCode).toBe(400);
    expect((await q(alice, `from=x&to=y`)).statusCode).toBe(400);
    expect((await q(alice, `${range}&granularity=minute`)).statusCode).toBe(400);
    expect((await q(alice, `${range}&port_id=1`)).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/traffic?${range}` })).statusCode).toBe(401);
  });
});

describe('dashboard', () => {
  it('shows active ports, those expiring soon, traffic of the last 24 h and recent notifications', async () => {
    await t.ctx.db.updateTable('ports').set({ expires_at: new Date(Date.now() + 2 * 86_400_000) }).where('id', '=', port._id).execute();
    const recentHour = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    expect(await report(agent, [{ portId: port._id, intervalStart: new Date(recentHour).toISOString(), bytesIn: '5', bytesOut: '7' }])).toMatchObject({ accepted: 1 });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/dashboard', ...json(alice.cookie) });
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.activePorts).toBe(1);
    expect(d.expiringSoon).toEqual([{ _id: port._id, modem_name: port.modem_name, expiresAt: expect.any(String) }]);
    expect(BigInt(d.traffic24h.bytesIn)).toBeGreaterThanOrEqual(5n);
    expect(d.recentNotifications.length).toBeGreaterThan(0);
    expect(d.recentNotifications[0]).toMatchObject({ type: 'payment', unread: true });
    const other = (await t.app.inject({ method: 'GET', url: '/api/v1/dashboard', ...json(bob.cookie) })).json();
    expect(other).toEqual({ activePorts: 0, expiringSoon: [], traffic24h: { bytesIn: '0', bytesOut: '0' }, recentNotifications: [] });
  });
});
