import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import type { Tx } from '../../db/database.js';
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

describe('the number check and the pool read what they need, not the farm (issue 31, item 3)', () => {
  /** Rows the transaction has read from ports and modems so far (sequential and index fetches). */
  const rowsRead = async (tx: Tx) => Number((await sql<{ n: string }>`
    select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0) as n from pg_stat_xact_user_tables
    where relname in ('ports', 'modems')`.execute(tx)).rows[0]!.n);

  it('a dedicated sale\'s check reads the ports holding its two numbers, whatever the host\'s size', async () => {
    const owner = await createCustomer(t);
    const seeded = await t.ctx.db.selectFrom('modems').select(['host_id', 'carrier_id', 'http_port', 'socks_port'])
      .where('country_id', '=', cat.usId).where('is_shared', '=', false).executeTakeFirstOrThrow();
    // One transaction, so one connection and its cached plans throughout.
    await t.ctx.db.transaction().execute(async (tx) => {
      const check = async (m: { host_id: string; http_port: number; socks_port: number }, exceptPort: string | null) => {
        const before = await rowsRead(tx);
        const { rows } = await sql<{ taken: boolean }>`select cellport_port_numbers_taken(${m.host_id}::uuid,
          array[${m.http_port}, ${m.socks_port}]::integer[], ${exceptPort}::uuid) as taken`.execute(tx);
        return { taken: rows[0]!.taken, read: await rowsRead(tx) - before };
      };
      // Checks while the tables are small (a fresh farm, as on the benches): a plan kept from them must not scan
      // the tables once they have grown.
      for (let i = 0; i < 8; i++) await check(seeded, null);
      // A host of 2,000 more modems with numbers of their own, half of them sold (their ports hold their numbers), as
      // on the benches' farm, where the check of 2026_12_12_1870 walked every modem of the host.
      await sql`insert into modems (imei, host_id, http_port, socks_port, ext_ip, country_id, carrier_id, is_shared, capacity)
        select 'N' || lpad(g::text, 14, '0'), ${seeded.host_id}, 40000 + 2 * g, 40001 + 2 * g, '198.51.100.7', ${cat.usId},
          ${seeded.carrier_id}, false, 1
        from generate_series(1, 2000) g`.execute(tx);
      await sql`insert into ports (id, user_id, modem_id, tariff_id, is_shared, name, proxy_login, proxy_password,
          rotation_nonce, rotation_token_hash, expires_at, http_port, socks_port)
        select gen_random_uuid(), ${owner.id}, m.id, ${cat.dedicatedMonth.id}, false, 'Proxy', 'n' || m.imei, 'p', 'n',
          'n' || m.imei, now() + interval '30 days', m.http_port, m.socks_port
        from modems m where m.imei between 'N00000000000001' and 'N00000000001000'`.execute(tx);
      const modem = (imei: string) => tx.selectFrom('modems').select(['host_id', 'http_port', 'socks_port'])
        .where('imei', '=', imei).executeTakeFirstOrThrow();
      const sold = await modem('N00000000000500');
      const soldPort = await tx.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id').select('p.id')
        .where('m.imei', '=', 'N00000000000500').executeTakeFirstOrThrow();

      const onFree = await check(await modem('N00000000001500'), null);
      expect(onFree.taken).toBe(false);
      expect(onFree.read).toBeLessThan(20);
      const onSold = await check(sold, null);
      expect(onSold.taken).toBe(true);
      // It read the port holding them (so the count counts), and little else.
      expect(onSold.read).toBeGreaterThan(0);
      expect(onSold.read).toBeLessThan(20);
      // The port holding them is not in its own way.
      expect((await check(sold, soldPort.id)).taken).toBe(false);
    });
  });

  it('a shared sale takes the lowest pair from 30000 of which no modem and no live port uses either number', async () => {
    const alice = await createCustomer(t, 1000);
    const seeded = await t.ctx.db.selectFrom('modems').select(['host_id', 'carrier_id']).where('country_id', '=', cat.usId)
      .executeTakeFirstOrThrow();
    const inUse = async () => {
      const { rows } = await sql<{ n: number }>`select http_port as n from modems union select socks_port from modems
        union select http_port from ports where status <> 'released' and http_port is not null
        union select socks_port from ports where status <> 'released' and socks_port is not null`.execute(t.ctx.db);
      return new Set(rows.map((r) => r.n));
    };
    const lowestFree = (used: Set<number>) => {
      for (let c = 30000; c <= 65532; c += 2) if (!used.has(c) && !used.has(c + 1)) return c;
      throw new Error('no pair left');
    };
    const first = lowestFree(await inUse());
    // The pair's odd number on a retired modem blocks it; a released port's numbers block nothing.
    await sql`insert into modems (imei, host_id, http_port, socks_port, ext_ip, country_id, carrier_id, is_shared, capacity, retired)
      values ('P00000000000001', ${seeded.host_id}, 29998, ${first + 1}, '198.51.100.8', ${cat.usId}, ${seeded.carrier_id}, false, 1, true)`
      .execute(t.ctx.db);
    const next = lowestFree(await inUse());
    expect(next).toBeGreaterThan(first);
    const released = await row(await buy(alice, true));
    await t.ctx.db.updateTable('ports').set({ status: 'released', http_port: next + 2, socks_port: next + 3 })
      .where('user_id', '=', alice.id).execute();
    expect(lowestFree(await inUse())).toBe(next);
    expect(released.http_port).toBe(next);

    const port = await row(await buy(alice, true));
    expect([port.http_port, port.socks_port]).toEqual([next, next + 1]);
  });
});
