import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { removeRefusedWhitelistEntries } from '../../db/migrations/2026_12_10_0800_port_access_rules.js';
import { createCustomer, json, portsAfterAnnouncements, seedTestCatalog, type Customer } from '../../../test/fixtures.js';
import { PortsRepository } from './ports.repository.js';
import { findWhitelistConflicts, reportWhitelistConflicts } from './whitelist-conflicts.js';

// Two customers on one shared modem (issue 26 item 5, issue 27 item 4): neither takes the other's connections by a
// whitelist, and neither changes the other's IP on demand.

let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeEach(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', MODEM_SIM_SAME_IP_RATE: '0' });
  cat = await seedTestCatalog(t);
});
afterEach(async () => { await t.close(); });

interface Bought { _id: string; ext_ip: string; rotationLink: string; isShared: boolean }
async function buy(c: Customer, isShared: boolean): Promise<Bought> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: isShared ? cat.sharedMonth.id : cat.dedicatedMonth.id, country_id: cat.usId, isShared, rotationInterval: isShared ? 10 : 0, modemCount: 1,
  }) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.modems[0] as Bought;
}
const modemOf = async (portId: string) =>
  (await t.ctx.db.selectFrom('ports').select('modem_id').where('id', '=', portId).executeTakeFirstOrThrow()).modem_id;

/** Alice and Bob, each with a shared port on the same modem. */
async function coTenants() {
  const alice = await createCustomer(t, 1000);
  const bob = await createCustomer(t, 1000);
  const a = await buy(alice, true);
  const b = await buy(bob, true);
  // Shared modems are filled in order, so both land on the first; the test holds only if they do.
  expect(await modemOf(b._id)).toBe(await modemOf(a._id));
  return { alice, bob, a, b, modemId: await modemOf(a._id) };
}

describe('whitelists on a shared modem', () => {
  it('refuses an entry that overlaps a co-tenant\'s whitelist, naming it, and keeps both whitelists as they were', async () => {
    const { alice, bob, a, b } = await coTenants();
    const patch = (who: Customer, id: string, whitelist: string[]) =>
      t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${id}`, ...json(who.cookie, { whitelist }) });
    expect((await patch(alice, a._id, ['198.51.100.0/24'])).statusCode).toBe(200);

    for (const [entries, clash] of [[['198.51.100.7'], '198.51.100.7'], [['81.2.3.4', '198.51.0.0/16'], '198.51.0.0/16'], [['198.51.100.0/24'], '198.51.100.0/24']] as const) {
      const res = await patch(bob, b._id, [...entries]);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'WHITELIST_OVERLAP', entry: clash, error: expect.stringContaining(clash) });
    }
    const bobs = await t.ctx.db.selectFrom('ports').select(['id', 'whitelist']).where('id', 'in', [a._id, b._id]).orderBy('id').execute();
    expect(Object.fromEntries(bobs.map((p) => [p.id, p.whitelist]))).toEqual({ [a._id]: ['198.51.100.0/24'], [b._id]: [] });

    // A neighbouring range is fine, and so is the same range on another modem.
    expect((await patch(bob, b._id, ['198.51.101.7'])).statusCode).toBe(200);
    const dedicated = await buy(bob, false);
    expect((await patch(bob, dedicated._id, ['198.51.100.7'])).statusCode).toBe(200);
    // Alice may keep (resend) her own whitelist: her own entries are not a clash.
    expect((await patch(alice, a._id, ['198.51.100.0/24', '198.51.100.9'])).statusCode).toBe(200);
  });

  it('refuses whole-internet, too broad and non-public entries with their own message', async () => {
    const { alice, a } = await coTenants();
    for (const [entry, message] of [['0.0.0.0/0', 'at most an IPv4 /16'], ['::/0', 'at most an IPv4 /16'], ['127.0.0.1', 'public address'], ['10.0.0.0/16', 'public address']]) {
      const res = await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${a._id}`, ...json(alice.cookie, { whitelist: [entry] }) });
      expect(res.statusCode, entry).toBe(400);
      expect(res.json().error, entry).toContain(message);
    }
  });

  it('finds and reports overlaps stored before the check, once per pair', async () => {
    const { a, b, modemId } = await coTenants();
    await t.ctx.db.updateTable('ports').set({ whitelist: JSON.stringify(['81.2.0.0/16']) }).where('id', '=', a._id).execute();
    await t.ctx.db.updateTable('ports').set({ whitelist: JSON.stringify(['2a00:1450::1', '81.2.3.4']) }).where('id', '=', b._id).execute();
    const [first, second] = [a._id, b._id].sort() as [string, string];
    const ports = new PortsRepository(t.ctx.db, t.config.secret, t.config.publicUrl);
    const conflicts = await findWhitelistConflicts(ports);
    expect(conflicts).toEqual([{ modemId, portIds: [first, second], entries: first === a._id ? ['81.2.0.0/16', '81.2.3.4'] : ['81.2.3.4', '81.2.0.0/16'] }]);
    const warnings: unknown[] = [];
    await reportWhitelistConflicts(ports, { warn: (obj) => warnings.push(obj) });
    expect(warnings).toEqual(conflicts);
  });

  it('the migration removes stored entries the rules refuse and keeps the rest in order', async () => {
    const { a, b } = await coTenants();
    await t.ctx.db.updateTable('ports').set({ whitelist: JSON.stringify(['81.2.3.4', '0.0.0.0/0', '10.1.2.3', '2a00:1450::/48', '::/0', 'fe80::1', '81.2.0.0/15']) }).where('id', '=', a._id).execute();
    await t.ctx.db.updateTable('ports').set({ whitelist: JSON.stringify(['198.51.100.7', '203.0.113.0/24']) }).where('id', '=', b._id).execute();
    await removeRefusedWhitelistEntries(t.ctx.db as unknown as Kysely<unknown>);
    const rows = await t.ctx.db.selectFrom('ports').select(['id', 'whitelist']).where('id', 'in', [a._id, b._id]).execute();
    expect(Object.fromEntries(rows.map((p) => [p.id, p.whitelist]))).toEqual({ [a._id]: ['81.2.3.4', '2a00:1450::/48'], [b._id]: ['198.51.100.7', '203.0.113.0/24'] });
  });
});

describe('rotating a shared port', () => {
  it('is refused on demand (button and API, rotation link, new link) with the next scheduled rotation; the modem is untouched', async () => {
    const { alice, bob, a, b, modemId } = await coTenants();
    const dueAt = new Date(Date.now() + 7 * 60_000);
    await t.ctx.db.updateTable('modems').set({ rotation_due_at: dueAt }).where('id', '=', modemId).execute();
    const before = await t.ctx.db.selectFrom('modems').select(['ext_ip', 'last_rotated_at', 'apply_status']).where('id', '=', modemId).executeTakeFirstOrThrow();

    const refusals = [
      await t.app.inject({ method: 'POST', url: `/api/v1/modems/${b._id}/rotate`, ...json(bob.cookie) }),
      await t.app.inject({ method: 'GET', url: `/api/v1/rotate/${b.rotationLink.split('/').pop()!}` }),
      await t.app.inject({ method: 'POST', url: `/api/v1/modems/${a._id}/rotation-link`, ...json(alice.cookie) }),
    ];
    // With an API key too (the customer API's rotate).
    const key = (await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(alice.cookie, { name: 'script' }) })).json().key as string;
    refusals.push(await t.app.inject({ method: 'POST', url: `/api/v1/modems/${a._id}/rotate`, headers: { authorization: `Bearer ${key}` } }));
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'SHARED_PORT_ROTATION', nextRotationAt: dueAt.toISOString() });
    }
    expect(await t.ctx.db.selectFrom('modems').select(['ext_ip', 'last_rotated_at', 'apply_status']).where('id', '=', modemId).executeTakeFirstOrThrow()).toEqual(before);
    expect(await t.ctx.db.selectFrom('ports').select('last_rotated_at').where('id', 'in', [a._id, b._id]).execute()).toEqual([{ last_rotated_at: null }, { last_rotated_at: null }]);

    // A dedicated port still rotates on demand (the refusal is about sharing, not rotation).
    const own = await buy(bob, false);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/modems/${own._id}/rotate`, ...json(bob.cookie) })).statusCode).toBe(200);
  });

  it('lists the modem\'s next scheduled rotation for a shared port, following the schedule as it moves', async () => {
    const { alice, a, modemId } = await coTenants();
    const next = async () => (await portsAfterAnnouncements<{ _id: string; nextRotationAt: string | null }>(t, alice.cookie)).find((p) => p._id === a._id)?.nextRotationAt;
    expect(await next()).toBeNull();
    const dueAt = new Date(Date.now() + 5 * 60_000);
    await t.ctx.db.updateTable('modems').set({ rotation_due_at: dueAt }).where('id', '=', modemId).execute();
    expect(await next()).toBe(dueAt.toISOString());
    const later = new Date(dueAt.getTime() + 10 * 60_000);
    await t.ctx.db.updateTable('modems').set({ rotation_due_at: later }).where('id', '=', modemId).execute();
    expect(await next()).toBe(later.toISOString());
  });
});
