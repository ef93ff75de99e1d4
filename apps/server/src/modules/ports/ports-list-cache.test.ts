import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Port } from '@cellport/shared/schemas/catalog';
import { announced } from '../../../test/announcements.js';
import { describeOnPostgres } from '../../../test/helpers.js';
import type { DatabaseHandle } from '../../db/database.js';
import { buildCountingApp, type CountingApp as Counted } from '../notifications/test-support.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';
import { PORTS_CHANNEL } from '../../lib/ports-channel.js';
import { PortsListCache } from './ports-list-cache.js';
import type { TestApp } from '../../../test/helpers.js';

type Catalog = Awaited<ReturnType<typeof seedTestCatalog>>;
type CountingApp = Counted & { cat: Catalog };
const apps: CountingApp[] = [];
afterEach(async () => { for (const a of apps.splice(0).reverse()) await a.close(); });

/** An app on a fresh database with the demo catalog, or a second instance on another app's database. */
async function start(deafTo: string[] = [], shareWith?: CountingApp): Promise<CountingApp> {
  const built = await buildCountingApp({ MODEM_SIM_DELAY_MS: '30', MODEM_SIM_SAME_IP_RATE: '0' }, shareWith, deafTo);
  const t = Object.assign(built, { cat: shareWith?.cat ?? await seedTestCatalog(built) });
  apps.push(t);
  return t;
}

async function buyPorts(t: CountingApp, c: Customer, modemCount = 2) {
  const { usId, dedicatedMonth } = t.cat;
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: dedicatedMonth.id, country_id: usId, isShared: false, rotationInterval: 0, modemCount,
  }) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.modems as Port[];
}

const list = async (t: TestApp, c: Customer, lng = 'en') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/modems?lng=${lng}`, ...json(c.cookie) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.json() as Port[];
};

/** Lists twice once everything is settled: the second listing must be answered from memory. */
async function kept(t: CountingApp, c: Customer): Promise<Port[]> {
  // Nothing left in the background could drop the list or add a query: every announcement of the writes so far has
  // been heard, and the invoice numbering a purchase kicked has finished.
  await t.settled();
  const ports = await list(t, c);
  const before = t.queries.count;
  expect(await list(t, c)).toEqual(ports);
  expect(t.queries.count - before, 'a repeated listing went to the database').toBe(0);
  return ports;
}

/**
 * Writes behind the app's back (as another instance, a job or the console would) while the list is kept, then
 * lists once the write's announcement has been heard: the list must show it.
 */
async function afterWrite(t: CountingApp, c: Customer, write: () => Promise<unknown>): Promise<Port[]> {
  await kept(t, c);
  await write();
  await announced(t);
  return list(t, c);
}

describe('the port list kept in memory', () => {
  it('answers a repeated listing without the database, per language', async () => {
    const t = await start();
    const c = await createCustomer(t, 1000);
    const bought = await buyPorts(t, c);
    const first = await kept(t, c);
    expect(first.map((p) => p._id)).toEqual(bought.map((p) => p._id));
    const before = t.queries.count;
    // Another language is another list (country names are localized), loaded once.
    const ru = await list(t, c, 'ru');
    expect(ru[0]!.country.name).not.toBe(first[0]!.country.name);
    expect(t.queries.count - before).toBeGreaterThan(0);
  });

  it('follows every kind of change: ports, the modem fields shown, hosts and the catalog — but not the stock count', async () => {
    const t = await start();
    const c = await createCustomer(t, 1000);
    const [port] = await buyPorts(t, c, 1);

    let ports = await afterWrite(t, c, () => t.ctx.db.updateTable('ports').set({ name: 'Renamed elsewhere' }).where('id', '=', port!._id).execute());
    expect(ports[0]!.modem_name).toBe('Renamed elsewhere');

    ports = await afterWrite(t, c, () => t.ctx.db.updateTable('modems').set({ ext_ip: '198.51.100.77', apply_status: 'rotating' }).where('imei', '=', port!.IMEI).execute());
    expect(ports[0]).toMatchObject({ ext_ip: '198.51.100.77', applyStatus: 'rotating' });

    ports = await afterWrite(t, c, () => sql`update hosts set address = 'edge.example.net' where id = (select host_id from modems where imei = ${port!.IMEI})`.execute(t.ctx.db));
    expect(ports[0]!.host).toBe('edge.example.net');

    ports = await afterWrite(t, c, () => sql`update tariffs set names = jsonb_set(names, '{en}', '"Renamed tariff"') where id = ${port!.tariff_id}`.execute(t.ctx.db));
    expect(ports[0]!.tariffName.en).toBe('Renamed tariff');

    // used_slots moves with every purchase and is not shown: the kept list stays. The sentinel comes back after the
    // write's announcement, had there been one, so "not dropped" is checked after the fact, not after a guess.
    await kept(t, c);
    await t.ctx.db.updateTable('modems').set({ used_slots: sql`used_slots` }).where('imei', '=', port!.IMEI).execute();
    await announced(t);
    const before = t.queries.count;
    await list(t, c);
    expect(t.queries.count - before).toBe(0);
  });

  it("shows a customer's own write at once, before any announcement arrives", async () => {
    // This instance never hears the triggers' announcements: only its own write path can drop the list.
    const t = await start([PORTS_CHANNEL]);
    const c = await createCustomer(t, 1000);
    const [port] = await buyPorts(t, c, 1);
    expect((await list(t, c)).map((p) => p._id)).toEqual([port!._id]);

    const patched = await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${port!._id}`, ...json(c.cookie, { modem_name: 'Mine' }) });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await list(t, c))[0]!.modem_name).toBe('Mine');

    const [second] = await buyPorts(t, c, 1);
    expect((await list(t, c)).map((p) => p._id)).toEqual([port!._id, second!._id]);

    // The proof that the list was really served from memory: a change nobody announced is not seen.
    await t.ctx.db.updateTable('ports').set({ name: 'Unannounced' }).where('id', '=', port!._id).execute();
    expect((await list(t, c))[0]!.modem_name).toBe('Mine');
  });

  it('shows a port as expired once its expiry passes, with no write at all', async () => {
    const t = await start([PORTS_CHANNEL]);
    const c = await createCustomer(t, 1000);
    const [port] = await buyPorts(t, c, 1);
    // Unannounced here; no list was kept since the purchase, so the next listing reads it and keeps it.
    const expiresAt = Date.now() + 10_000;
    await t.ctx.db.updateTable('ports').set({ expires_at: new Date(expiresAt) }).where('id', '=', port!._id).execute();
    expect((await list(t, c))[0]!.status).toBe('active');
    // The clock, not the wall: only Date is faked, so the database and the server's timers run as usual. 10 s is
    // well inside the 60 s safety TTL, so only the expiry can drop the kept list.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(expiresAt - 1);
      expect((await list(t, c))[0]!.status).toBe('active');
      vi.setSystemTime(expiresAt + 1);
      expect((await list(t, c))[0]!.status).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps nothing for the others: each customer sees only their own ports', async () => {
    const t = await start();
    const alice = await createCustomer(t, 1000);
    const bob = await createCustomer(t, 1000);
    const mine = await buyPorts(t, alice, 1);
    expect((await list(t, alice)).map((p) => p._id)).toEqual(mine.map((p) => p._id));
    expect(await list(t, bob)).toEqual([]);
  });
});

describe('PortsListCache', () => {
  /** A database handle whose only use here is the channel: payloads are delivered by hand. */
  function fakeDatabase() {
    let deliver: (payload: string) => void = () => {};
    let resync: (() => void) | undefined;
    const database = {
      listen: async (_channel: string, onPayload: (p: string) => void, onResync?: () => void) => {
        deliver = onPayload;
        resync = onResync;
        return async () => {};
      },
    } as unknown as DatabaseHandle;
    return { database, announce: (p: string) => deliver(p), resync: () => resync?.() };
  }
  const port = (id: string, imei: string): Port => ({
    _id: id, IMEI: imei, modem_name: 'Proxy 1', status: 'active', applyStatus: 'idle', ext_ip: '192.0.2.1', online: true, suspended: false,
    host: 'h', http_port: 1, socks_port: 2, login: 'l', password: 'p', whitelist: [], rotationInterval: 0,
    rotationLink: 'x', expiresAt: new Date(Date.now() + 86_400_000).toISOString(), autoRenew: false,
    tariff_id: '00000000-0000-4000-8000-000000000001', tariffName: { en: 'T', ru: 'T', cn: 'T' }, period: 'month', price: '1',
    country: { _id: '00000000-0000-4000-8000-000000000002', code: 'US', name: 'US' },
    carrier: { _id: '00000000-0000-4000-8000-000000000003', name: 'C' }, region: null, isShared: false, lastRotatedAt: null, nextRotationAt: null, tags: [], note: '',
    fingerprint: { preset: null, active: 'native', source: 'none', available: true, unavailableReason: null, failing: null },
  });
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

  it('does not keep a load that a change overtook', async () => {
    const fake = fakeDatabase();
    const cache = new PortsListCache(fake.database);
    await cache.start();
    for (const announcement of [`u:${id(9)},${id(1)}`, 'm:869000000000001', '*']) {
      let release!: () => void;
      const loading = cache.json(id(1), 'en', () => new Promise((r) => { release = () => r([port(id(10), '869000000000001')]); }));
      await Promise.resolve();
      fake.announce(announcement);
      release();
      expect(JSON.parse(await loading)).toHaveLength(1);
      expect(cache.size, announcement).toBe(0);
    }
    await cache.json(id(1), 'en', async () => [port(id(10), '869000000000001')]);
    expect(cache.size).toBe(1);
  });

  it('drops the lists a modem or a customer appears in, everything on a resync, and the oldest past its bound', async () => {
    const fake = fakeDatabase();
    const oneList = JSON.stringify([port(id(101), '869000000000001')]).length;
    const cache = new PortsListCache(fake.database, { maxChars: oneList * 3 + oneList / 2 });
    await cache.start();
    let loads = 0;
    const get = (user: number, imei: string) => cache.json(id(user), 'en', async () => { loads++; return [port(id(100 + user), imei)]; });
    await get(1, '869000000000001');
    await get(2, '869000000000002');
    await get(1, '869000000000001');
    expect(loads).toBe(2);
    fake.announce('m:869000000000002');
    await get(1, '869000000000001');
    await get(2, '869000000000002');
    expect(loads).toBe(3);
    fake.announce(`u:${id(1)}`);
    await get(1, '869000000000001');
    expect(loads).toBe(4);
    fake.resync();
    expect(cache.size).toBe(0);
    // The bound holds three and a half lists: the three most recently used are kept.
    for (let user = 1; user <= 5; user++) await get(user, `86900000000000${user}`);
    expect(cache.size).toBe(3);
    const before = loads;
    await get(5, '869000000000005');
    await get(1, '869000000000001');
    expect(loads - before).toBe(1);
  });

  it('keeps nothing before it listens or after it stops', async () => {
    const cache = new PortsListCache(fakeDatabase().database);
    const load = async () => [port(id(2), '869000000000002')];
    await cache.json(id(1), 'en', load);
    expect(cache.size).toBe(0);
    await cache.start();
    await cache.json(id(1), 'en', load);
    expect(cache.size).toBe(1);
    await cache.stop();
    await cache.json(id(1), 'en', load);
    expect(cache.size).toBe(0);
  });

  it('refuses a list that does not match the API schema', async () => {
    const cache = new PortsListCache(fakeDatabase().database);
    await cache.start();
    await expect(cache.json(id(1), 'en', async () => [{ ...port(id(2), '1'), status: 'gone' } as unknown as Port])).rejects.toThrow();
    expect(cache.size).toBe(0);
  });
});

describeOnPostgres('the port list on two instances', () => {
  it('an instance drops its kept list when another instance changes the port', async () => {
    const a = await start();
    const b = await start([], a);
    const c = await createCustomer(a, 1000);
    const [port] = await buyPorts(a, c, 1);
    await kept(a, c);
    const patched = await b.app.inject({ method: 'PATCH', url: `/api/v1/modems/${port!._id}`, ...json(c.cookie, { modem_name: 'From B' }) });
    expect(patched.statusCode, patched.body).toBe(200);
    await announced(a);
    expect((await list(a, c))[0]!.modem_name).toBe('From B');
  });
});
