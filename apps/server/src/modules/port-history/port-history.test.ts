import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';

// Issue 27, item 9: GET /api/v1/modems/:id/history — uptime over 24 h / 7 d / 30 d from the modem's health changes,
// and the IPs the port sent from, recorded by triggers whatever changed them.

let t: TestApp;
let alice: Customer;
let bob: Customer;
let portId: string;
let modemId: string;

beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', MODEM_SIM_SAME_IP_RATE: '0' });
  const cat = await seedTestCatalog(t);
  alice = await createCustomer(t, 100);
  bob = await createCustomer(t);
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(alice.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  portId = bought.json().data.modems[0]._id;
  modemId = (await t.ctx.db.selectFrom('ports').select('modem_id').where('id', '=', portId).executeTakeFirstOrThrow()).modem_id;
});
afterAll(async () => { await t.close(); });

const history = (c: Customer, id = portId) => t.app.inject({ method: 'GET', url: `/api/v1/modems/${id}/history`, ...json(c.cookie) });

describe('port history', () => {
  it('records each new IP and each health change of the modem, whatever made it', async () => {
    const before = (await history(alice)).json();
    expect(before.uptime.day.ratio).toBe(1);
    expect(before.ips).toEqual([]);

    const rotated = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${portId}/rotate`, ...json(alice.cookie) });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const newIp = rotated.json().new_ip as string;
    await t.ctx.db.updateTable('modems').set({ health: 'offline' }).where('id', '=', modemId).execute();
    await t.ctx.db.updateTable('modems').set({ health: 'offline' }).where('id', '=', modemId).execute(); // no change: no row
    await t.ctx.db.updateTable('modems').set({ health: 'online' }).where('id', '=', modemId).execute();

    const after = (await history(alice)).json();
    expect(after.ips).toEqual([{ ip: newIp, at: expect.any(String) }]);
    const changes = await t.ctx.db.selectFrom('modem_health_history').select(['health_from', 'health_to']).where('modem_id', '=', modemId).orderBy('at').execute();
    expect(changes).toEqual([{ health_from: 'online', health_to: 'offline' }, { health_from: 'offline', health_to: 'online' }]);
  });

  it('gives uptime over each window from when the port got its modem, on the server\'s clock', async () => {
    await t.ctx.db.deleteFrom('modem_health_history').where('modem_id', '=', modemId).execute();
    // The port is 40 days old; its modem was offline from 10 d to 9 d ago and for the last 6 hours.
    await t.ctx.db.updateTable('ports').set({ created_at: sql`now() - interval '40 days'` } as never).where('id', '=', portId).execute();
    await sql`insert into modem_health_history (modem_id, at, health_from, health_to) values
      (${modemId}, now() - interval '10 days', 'online', 'offline'),
      (${modemId}, now() - interval '9 days', 'offline', 'online'),
      (${modemId}, now() - interval '6 hours', 'online', 'offline')`.execute(t.ctx.db);
    await sql`alter table modems disable trigger modem_health_history`.execute(t.ctx.db);
    await t.ctx.db.updateTable('modems').set({ health: 'offline' }).where('id', '=', modemId).execute();
    await sql`alter table modems enable trigger modem_health_history`.execute(t.ctx.db);

    const { uptime } = (await history(alice)).json();
    expect(uptime.day.ratio).toBeCloseTo(18 / 24, 3);
    expect(uptime.week.ratio).toBeCloseTo(1 - 6 / (24 * 7), 3);
    expect(uptime.month.ratio).toBeCloseTo(1 - 30 / (24 * 30), 3);
    expect(Date.now() - Date.parse(uptime.month.from)).toBeGreaterThan(29.9 * 24 * 3_600_000);

    // A port bought 2 hours ago counts from then, not from a window that began before it.
    await t.ctx.db.updateTable('ports').set({ created_at: sql`now() - interval '2 hours'` } as never).where('id', '=', portId).execute();
    const young = (await history(alice)).json();
    expect(young.uptime.month.ratio).toBe(0);
    expect(Date.now() - Date.parse(young.uptime.month.from)).toBeLessThan(2.1 * 3_600_000);
  });

  it('is the owner\'s only: another customer gets 404, a visitor 401', async () => {
    expect((await history(bob)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/modems/${portId}/history` })).statusCode).toBe(401);
  });
});
