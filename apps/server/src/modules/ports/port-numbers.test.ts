import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';
import { up as portsOwnListeningNumbers } from '../../db/migrations/2026_12_12_1710_ports_own_listening_numbers.js';
import { loadDesiredStates } from '../hosts/host-state.js';
import { HostStateRepository } from '../hosts/index.js';

// Decision 045: each port owns its listening numbers. Given when sold (a dedicated port its modem's, a shared one a
// pair no modem or live port of the farm uses), and given by the migration to ports sold before it (dedicated: the
// modem's numbers their customers already use; shared: none, so they stay on the modem's shared numbers).

let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeEach(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated' });
  cat = await seedTestCatalog(t);
});
afterEach(async () => { await t.close(); });

async function buy(c: Customer, isShared: boolean): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: isShared ? cat.sharedMonth.id : cat.dedicatedMonth.id, country_id: cat.usId, isShared,
    rotationInterval: isShared ? 10 : 0, modemCount: 1,
  }) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.modems as Array<{ _id: string }>)[0]!._id;
}

const row = (portId: string) => t.ctx.db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
  .select(['p.http_port', 'p.socks_port', 'm.id as modem_id', 'm.host_id', 'm.http_port as modem_http', 'm.socks_port as modem_socks'])
  .where('p.id', '=', portId).executeTakeFirstOrThrow();

describe('a port\'s own listening numbers', () => {
  it('when sold: a dedicated port its modem\'s; shared co-tenants each a pair no modem or live port uses', async () => {
    const alice = await createCustomer(t, 1000);
    const bob = await createCustomer(t, 1000);
    const dedicated = await row(await buy(alice, false));
    expect([dedicated.http_port, dedicated.socks_port]).toEqual([dedicated.modem_http, dedicated.modem_socks]);

    const a = await row(await buy(alice, true));
    const b = await row(await buy(bob, true));
    expect(b.modem_id).toBe(a.modem_id);
    expect(a.socks_port).toBe(a.http_port! + 1);
    expect(b.http_port).not.toBe(a.http_port);
    const modems = await t.ctx.db.selectFrom('modems').select(['http_port', 'socks_port']).execute();
    const modemNumbers = new Set(modems.flatMap((m) => [m.http_port, m.socks_port]));
    for (const n of [a.http_port, a.socks_port, b.http_port, b.socks_port]) expect(modemNumbers.has(n!)).toBe(false);
  });

  it('when sold on a modem whose numbers a port that moved there holds: a free pair instead', async () => {
    const alice = await createCustomer(t, 1000);
    const bob = await createCustomer(t, 1000);
    const first = await row(await buy(alice, false));
    // Alice's port moved off its modem (same host) keeping its numbers; the modem is sold again to Bob.
    const other = await t.ctx.db.selectFrom('modems').select('id').where('host_id', '=', first.host_id).where('is_shared', '=', false)
      .where('used_slots', '=', 0).where('id', '<>', first.modem_id).executeTakeFirstOrThrow();
    const alicePort = await t.ctx.db.selectFrom('ports').select('id').where('user_id', '=', alice.id).executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('ports').set({ modem_id: other.id }).where('id', '=', alicePort.id).execute();
    await t.ctx.db.updateTable('modems').set({ used_slots: 0 }).where('id', '=', first.modem_id).execute();
    await t.ctx.db.updateTable('modems').set({ retired: true }).where('country_id', '=', cat.usId).where('is_shared', '=', false)
      .where('id', '<>', first.modem_id).execute();
    const second = await row(await buy(bob, false));
    expect(second.modem_id).toBe(first.modem_id);
    expect(second.http_port).not.toBe(first.http_port);
    expect(second.socks_port).toBe(second.http_port! + 1);
  });

  it('the migration: dedicated ports sold before it keep their modem\'s numbers; shared ones stay on the modem\'s', async () => {
    const alice = await createCustomer(t, 1000);
    const bob = await createCustomer(t, 1000);
    const dedicatedId = await buy(alice, false);
    const sharedId = await buy(bob, true);
    // The database as it was before the migration, with these ports in it; then the migration itself.
    await sql`
      drop trigger ports_own_numbers on ports;
      drop function cellport_port_numbers();
      drop function cellport_free_port_numbers();
      drop function cellport_port_numbers_taken(uuid, integer[], uuid);
      alter table ports drop constraint ports_numbers_together;
      alter table ports drop column http_port;
      alter table ports drop column socks_port;
    `.execute(t.ctx.db);
    await portsOwnListeningNumbers(t.ctx.db as unknown as Kysely<unknown>);

    const dedicated = await row(dedicatedId);
    expect([dedicated.http_port, dedicated.socks_port]).toEqual([dedicated.modem_http, dedicated.modem_socks]);
    const shared = await row(sharedId);
    expect([shared.http_port, shared.socks_port]).toEqual([null, null]);
    // Both are listed and served where their customers already connect.
    const listed = async (c: Customer) => (await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(c.cookie) })).json()[0];
    expect(await listed(alice)).toMatchObject({ http_port: dedicated.modem_http, socks_port: dedicated.modem_socks });
    expect(await listed(bob)).toMatchObject({ http_port: shared.modem_http, socks_port: shared.modem_socks });
    const state = (await loadDesiredStates(new HostStateRepository(t.ctx.db), [shared.host_id])).get(shared.host_id)!.state;
    const ports = state.modems.flatMap((m) => m.ports);
    expect(ports.find((p) => p.id === dedicatedId)?.listen).toEqual({ httpPort: dedicated.modem_http, socksPort: dedicated.modem_socks });
    expect(ports.find((p) => p.id === sharedId)?.listen).toBeUndefined();
    // And the next sale gets numbers again (the trigger is back).
    const carol = await createCustomer(t, 1000);
    expect((await row(await buy(carol, true))).http_port).not.toBeNull();
  });
});
