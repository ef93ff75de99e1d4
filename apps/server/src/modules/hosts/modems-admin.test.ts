import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { seedTestCatalog } from '../../../test/fixtures.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';

const HEADER = 'IMEI,host,http_port,socks_port,ext_ip,country,carrier,region,isShared,capacity';

describe('admin modems (the inventory)', () => {
  let t: TestApp;
  let admin: Signed;
  let usId: string;
  beforeEach(async () => {
    t = await buildTestApp();
    admin = await signedIn(t);
    usId = (await seedTestCatalog(t)).usId;
  });
  afterEach(async () => { await t.close(); });

  async function hostAndCarrier() {
    const host = await call(t, admin.cookie, 'POST', '/api/v1/admin/hosts', { name: 'import-host', address: '10.9.0.1' });
    expect(host.statusCode).toBe(200);
    const carrier = await t.ctx.db.selectFrom('carriers').select(['id', 'name']).where('country_id', '=', usId).executeTakeFirstOrThrow();
    return { hostId: host.json().host.id as string, carrier };
  }

  it('imports the good rows of a CSV and reports each bad one with its reason', async () => {
    const { carrier } = await hostAndCarrier();
    const taken = await t.ctx.db.selectFrom('modems').select('imei').executeTakeFirstOrThrow();
    const csv = [
      HEADER,
      `869000000000001,import-host,20001,30001,203.0.113.1,US,${carrier.name},,false,`,
      `869000000000002,import-host,20002,30002,203.0.113.2,us,"${carrier.name}",,true,4`,
      `869000000000003,no-such-host,20003,30003,203.0.113.3,US,${carrier.name},,false,`,
      `869000000000004,import-host,20004,30004,not-an-ip,US,${carrier.name},,false,`,
      `${taken.imei},import-host,20005,30005,203.0.113.5,US,${carrier.name},,false,`,
      `869000000000001,import-host,20006,30006,203.0.113.6,US,${carrier.name},,false,`,
      `869000000000007,import-host,20001,30007,203.0.113.7,US,${carrier.name},,false,`,
      `869000000000008,import-host,20008,30008,203.0.113.8,ZZ,${carrier.name},,false,`,
      `869000000000009,import-host,20009,30009,203.0.113.9,US,Nope Mobile,,false,`,
      `869000000000010,import-host,20010,30010,203.0.113.10,US,${carrier.name},Atlantis,false,`,
      '',
    ].join('\r\n');
    const res = await call(t, admin.cookie, 'POST', '/api/v1/admin/modems/import', csv, { 'content-type': 'text/csv' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ inserted: 2, failed: 8 });
    expect(body.rows.map((r: { row: number; ok: boolean; code: string | null; field: string | null }) => [r.row, r.ok, r.code, r.field])).toEqual([
      [2, true, null, null], [3, true, null, null], [4, false, 'HOST_UNKNOWN', 'host'], [5, false, 'CSV_FIELD', 'ext_ip'],
      [6, false, 'IMEI_TAKEN', 'IMEI'], [7, false, 'CSV_DUPLICATE', 'IMEI'], [8, false, 'CSV_DUPLICATE', 'http_port'],
      [9, false, 'COUNTRY_UNKNOWN', 'country'], [10, false, 'CARRIER_UNKNOWN', 'carrier'], [11, false, 'REGION_UNKNOWN', 'region'],
    ]);
    expect(body.rows[3].error).toBe('The value in column ext_ip is not valid');
    const rows = await t.ctx.db.selectFrom('modems').select(['imei', 'is_shared', 'capacity', 'rotation_interval'])
      .where('imei', 'in', ['869000000000001', '869000000000002']).orderBy('imei').execute();
    expect(rows).toEqual([
      { imei: '869000000000001', is_shared: false, capacity: 1, rotation_interval: null },
      { imei: '869000000000002', is_shared: true, capacity: 4, rotation_interval: 0 },
    ]);
    const [entry] = await auditOf(t, 'modem.import');
    expect(entry!.after).toMatchObject({ inserted: 2, failed: 8 });

    const json = await call(t, admin.cookie, 'POST', '/api/v1/admin/modems/import', { csv: `${HEADER}\n869000000000011,import-host,20011,30011,203.0.113.11,US,${carrier.name},,no,` });
    expect(json.json()).toMatchObject({ inserted: 1, failed: 0 });
    const noHeader = await call(t, admin.cookie, 'POST', '/api/v1/admin/modems/import', '869000000000012,import-host', { 'content-type': 'text/plain' });
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().code).toBe('CSV_HEADER');
  });

  it('adds, edits and retires a modem; never deletes one with history; lists who uses it; reports stock', async () => {
    const { hostId, carrier } = await hostAndCarrier();
    const created = await call(t, admin.cookie, 'POST', '/api/v1/admin/modems', {
      imei: '351111111111111', hostId, httpPort: 21000, socksPort: 31000, extIp: '198.51.100.7', countryId: usId,
      carrierId: carrier.id, isShared: false,
    });
    expect(created.statusCode).toBe(200);
    const modem = created.json().modem;
    expect(modem).toMatchObject({ imei: '351111111111111', hostName: 'import-host', capacity: 1, users: [], retired: false });
    const dup = await call(t, admin.cookie, 'POST', '/api/v1/admin/modems', {
      imei: '351111111111111', hostId, httpPort: 21001, socksPort: 31001, extIp: '198.51.100.8', countryId: usId, carrierId: carrier.id, isShared: false,
    });
    expect(dup.json().code).toBe('IMEI_TAKEN');
    const edited = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/modems/${modem.id}`, { extIp: '198.51.100.9', online: false });
    expect(edited.json().modem).toMatchObject({ extIp: '198.51.100.9', online: false });
    const [update] = await auditOf(t, 'modem.update');
    expect(update).toMatchObject({ target_id: modem.id, before: { ext_ip: '198.51.100.7' }, after: { ext_ip: '198.51.100.9' } });

    // A modem that carried a port is retired, never deleted.
    const customer = await signedIn(t, 'customer');
    const tariff = await t.ctx.db.selectFrom('tariffs').select('id').where('country_id', '=', usId).executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('ports').values({
      user_id: customer.id, modem_id: modem.id, tariff_id: tariff.id, is_shared: false, name: 'p1', proxy_login: 'loginx1',
      proxy_password: 'secret1', whitelist: '[]', rotation_nonce: 'n', rotation_token_hash: 'h-1', expires_at: new Date(Date.now() + 86_400_000),
    }).execute();
    const list = await call(t, admin.cookie, 'GET', `/api/v1/admin/modems?q=351111111111111`);
    expect(list.json().items[0].users).toMatchObject([{ userId: customer.id, email: customer.email, portName: 'p1', status: 'active' }]);
    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/modems/${modem.id}`)).json().code).toBe('IN_USE');
    const retired = await call(t, admin.cookie, 'POST', `/api/v1/admin/modems/${modem.id}/retire`);
    expect(retired.json().modem.retired).toBe(true);
    expect(await auditOf(t, 'modem.retire')).toHaveLength(1);
    expect((await call(t, admin.cookie, 'GET', '/api/v1/admin/modems?status=retired')).json().items.map((m: { id: string }) => m.id)).toContain(modem.id);
    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/hosts/${hostId}`)).json().code).toBe('IN_USE');

    const stock = (await call(t, admin.cookie, 'GET', '/api/v1/admin/stock')).json();
    const free = await t.ctx.db.selectFrom('modems').select((eb) => eb.fn.sum<string>(eb.ref('capacity')).as('cap'))
      .where('retired', '=', false).where('online', '=', true).executeTakeFirstOrThrow();
    const used = await t.ctx.db.selectFrom('modems').select((eb) => eb.fn.sum<string>(eb.ref('used_slots')).as('u'))
      .where('retired', '=', false).where('online', '=', true).executeTakeFirstOrThrow();
    expect(stock.totals.free).toBe(Number(free.cap) - Number(used.u));
    expect(stock.items.some((i: { countryCode: string; isShared: boolean }) => i.countryCode === 'US' && i.isShared)).toBe(true);
  });
});
