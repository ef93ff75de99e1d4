import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../purchases/test-fixtures.js';
import { issueHostKey } from './host-keys.js';

let t: TestApp;
let alice: Customer;
let bob: Customer;
let port: { _id: string; modem_name: string; IMEI: string };
let hostKey: string;
let otherHostKey: string;
const HOUR = 3_600_000;
// Whole hours in the past: after the port was bought (its created_at is moved back below).
const base = Math.floor(Date.now() / HOUR) * HOUR - 30 * HOUR;
const at = (h: number) => new Date(base + h * HOUR).toISOString();

beforeAll(async () => {
  t = await buildTestApp();
  const cat = await seedTestCatalog(t);
  alice = await createCustomer(t, 1000);
  bob = await createCustomer(t, 1000);
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(alice.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  port = bought.json().data.modems[0];
  await t.ctx.db.updateTable('ports').set({ created_at: new Date(base - HOUR) } as never).where('id', '=', port._id).execute();
  const modem = await t.ctx.db.selectFrom('modems').select('host_id').where('imei', '=', port.IMEI).executeTakeFirstOrThrow();
  hostKey = await issueHostKey(t.ctx.db, modem.host_id);
  const other = await t.ctx.db.selectFrom('hosts').select('id').where('id', '!=', modem.host_id).executeTakeFirstOrThrow();
  otherHostKey = await issueHostKey(t.ctx.db, other.id);
});
afterAll(async () => { await t.close(); });

const ingest = (key: string | undefined, payload: unknown) => t.app.inject({
  method: 'POST', url: '/api/v1/hosts/traffic', headers: key ? { authorization: `Bearer ${key}` } : {}, payload: payload as object,
});
const batch = (hours: number[], bytes = '1000') => ({ samples: hours.map((h) => ({ IMEI: port.IMEI, intervalStart: at(h), bytesIn: bytes, bytesOut: '10' })) });

describe('traffic ingest', () => {
  it('needs a valid host key', async () => {
    expect((await ingest(undefined, batch([0]))).statusCode).toBe(401);
    expect((await ingest('chk_forged', batch([0]))).statusCode).toBe(401);
    expect((await ingest('chk_forged', batch([0]))).json().code).toBe('HOST_KEY_INVALID');
  });

  it('stores a batch once: a resend counts nothing, and a modem of another host is skipped', async () => {
    const first = await ingest(hostKey, batch([0, 1, 2]));
    expect(first.json()).toEqual({ accepted: 3 });
    expect((await ingest(hostKey, batch([0, 1, 2]))).json()).toEqual({ accepted: 0 });
    expect((await ingest(hostKey, batch([2, 3]))).json()).toEqual({ accepted: 1 });
    expect((await ingest(otherHostKey, batch([5]))).json()).toEqual({ accepted: 0 });
    const rows = await t.ctx.db.selectFrom('traffic_samples').selectAll().where('imei', '=', port.IMEI).execute();
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.port_id))).toEqual(new Set([port._id]));
    expect(new Set(rows.map((r) => r.user_id))).toEqual(new Set([alice.id]));
  });

  it('the same batch sent twice at once is stored once (PostgreSQL: concurrent transactions)', async () => {
    const hours = [10, 11, 12, 13, 14, 15];
    const results = await Promise.all([ingest(hostKey, batch(hours)), ingest(hostKey, batch(hours)), ingest(hostKey, batch(hours))]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(results.reduce((sum, r) => sum + (r.json().accepted as number), 0)).toBe(6);
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from traffic_samples where interval_start >= ${new Date(base + 10 * HOUR)} and interval_start <= ${new Date(base + 15 * HOUR)}`.execute(t.ctx.db);
    expect(rows[0]!.n).toBe('6');
  });

  it('refuses malformed batches with 4xx, never 5xx', async () => {
    const bad: unknown[] = [
      {}, { samples: [] }, { samples: 'x' },
      { samples: [{ IMEI: port.IMEI, intervalStart: 'yesterday', bytesIn: '1', bytesOut: '1' }] },
      { samples: [{ IMEI: port.IMEI, intervalStart: at(0), bytesIn: -1, bytesOut: '1' }] },
      { samples: [{ IMEI: port.IMEI, intervalStart: at(0), bytesIn: '1.5', bytesOut: '1' }] },
      { samples: [{ IMEI: port.IMEI, intervalStart: at(0), bytesIn: '99999999999999999999', bytesOut: '1' }] },
      { samples: [{ IMEI: port.IMEI, intervalStart: new Date(base + 61_000).toISOString(), bytesIn: '1', bytesOut: '1' }] },
      { samples: [{ IMEI: port.IMEI, intervalStart: new Date(Date.now() + 5 * HOUR).toISOString().slice(0, 13) + ':00:00.000Z', bytesIn: '1', bytesOut: '1' }] },
      { samples: Array.from({ length: 1001 }, (_, i) => ({ IMEI: port.IMEI, intervalStart: at(-i), bytesIn: '1', bytesOut: '1' })) },
    ];
    for (const payload of bad) {
      const res = await ingest(hostKey, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 120)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const raw = await t.app.inject({ method: 'POST', url: '/api/v1/hosts/traffic', headers: { authorization: `Bearer ${hostKey}`, 'content-type': 'application/json' }, payload: '{"samples": [' });
    expect(raw.statusCode).toBe(400);
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
    await ingest(hostKey, { samples: [{ IMEI: port.IMEI, intervalStart: new Date(recentHour).toISOString(), bytesIn: '5', bytesOut: '7' }] });
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
