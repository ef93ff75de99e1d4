import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { seedTestCatalog } from '../../../test/fixtures.js';
import { hostForKey } from './host-keys.repository.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';

interface HostItem {
  id: string; name: string; hasKey: boolean; lastSeenAt: string | null; online: boolean; agentVersion: string | null;
  agentStartedAt: string | null; modemCount: number;
  modems: { imei: string; httpPort: number; socksPort: number; extIp: string; online: boolean; connections: number; problem: string | null; report: Record<string, unknown> | null }[];
  newModems: Array<Record<string, unknown> & { imei: string }>;
}

describe('admin hosts: agent contact and host keys', () => {
  let t: TestApp;
  let admin: Signed;
  let usId: string;
  beforeEach(async () => {
    t = await buildTestApp();
    admin = await signedIn(t);
    usId = (await seedTestCatalog(t)).usId;
  });
  afterEach(async () => { await t.close(); });

  async function newHost(name: string) {
    const res = await call(t, admin.cookie, 'POST', '/api/v1/admin/hosts', { name, address: '10.20.0.1' });
    expect(res.statusCode).toBe(200);
    return res.json().host.id as string;
  }
  const listed = async (id: string) => {
    const res = await call(t, admin.cookie, 'GET', '/api/v1/admin/hosts');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { items: HostItem[]; now: string };
    return { host: body.items.find((h) => h.id === id)!, now: body.now };
  };

  it('issues a key once: only its hash is kept, the old key stops authenticating, the audit log never holds it', async () => {
    const hostId = await newHost('key-host');
    expect((await listed(hostId)).host.hasKey).toBe(false);

    const first = await call(t, admin.cookie, 'POST', `/api/v1/admin/hosts/${hostId}/key`);
    expect(first.statusCode).toBe(200);
    const key1 = first.json().key as string;
    expect(key1).toMatch(/^chk_/);
    expect(await hostForKey(t.ctx.db, key1)).toBe(hostId);
    const row = await t.ctx.db.selectFrom('hosts').select('ingest_key_hash').where('id', '=', hostId).executeTakeFirstOrThrow();
    expect(row.ingest_key_hash).not.toBeNull();
    expect(row.ingest_key_hash).not.toContain(key1.slice(4));
    expect((await listed(hostId)).host.hasKey).toBe(true);

    const second = await call(t, admin.cookie, 'POST', `/api/v1/admin/hosts/${hostId}/key`);
    const key2 = second.json().key as string;
    expect(key2).not.toBe(key1);
    expect(await hostForKey(t.ctx.db, key1)).toBeNull();
    expect(await hostForKey(t.ctx.db, key2)).toBe(hostId);
    // The listing never shows a key again.
    const listing = (await call(t, admin.cookie, 'GET', '/api/v1/admin/hosts')).body;
    expect(listing).not.toContain(key2);

    const entries = await auditOf(t, 'host.key-issue');
    expect(entries.map((e) => [e.target_id, e.admin_id, e.before, e.after])).toEqual([
      [hostId, admin.id, { name: 'key-host', hadKey: false }, { name: 'key-host', keyReplaced: false }],
      [hostId, admin.id, { name: 'key-host', hadKey: true }, { name: 'key-host', keyReplaced: true }],
    ]);
    const everything = JSON.stringify(await t.ctx.db.selectFrom('audit_log').select(['before', 'after', 'target_id']).execute());
    expect(everything).not.toContain(key1.slice(4));
    expect(everything).not.toContain(key2.slice(4));

    const missing = await call(t, admin.cookie, 'POST', '/api/v1/admin/hosts/00000000-0000-4000-8000-000000000000/key');
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a customer (403) and a visitor (401), and issues nothing', async () => {
    const hostId = await newHost('guarded-host');
    const customer = await signedIn(t, 'customer');
    const asCustomer = await call(t, customer.cookie, 'POST', `/api/v1/admin/hosts/${hostId}/key`);
    expect([asCustomer.statusCode, asCustomer.json().code]).toEqual([403, 'FORBIDDEN']);
    expect((await call(t, customer.cookie, 'GET', '/api/v1/admin/hosts')).statusCode).toBe(403);
    expect((await call(t, null, 'POST', `/api/v1/admin/hosts/${hostId}/key`)).statusCode).toBe(401);
    const row = await t.ctx.db.selectFrom('hosts').select('ingest_key_hash').where('id', '=', hostId).executeTakeFirstOrThrow();
    expect(row.ingest_key_hash).toBeNull();
    expect(await auditOf(t, 'host.key-issue')).toEqual([]);
  });

  it('lists each host with its last contact, online within 60 s, agent version, uptime start and modems as reported', async () => {
    const hostId = await newHost('agent-host');
    const never = await listed(hostId);
    expect(never.host).toMatchObject({ lastSeenAt: null, online: false, agentVersion: null, agentStartedAt: null, modems: [], modemCount: 0 });

    const carrier = await t.ctx.db.selectFrom('carriers').select('id').where('country_id', '=', usId).executeTakeFirstOrThrow();
    const modem = (imei: string, httpPort: number, extIp: string) => ({
      imei, host_id: hostId, http_port: httpPort, socks_port: httpPort + 1000, ext_ip: extIp, country_id: usId, carrier_id: carrier.id,
      is_shared: false, rotation_interval: null, last_rotated_at: null,
    });
    await t.ctx.db.insertInto('modems').values([
      { ...modem('356000000000201', 24001, '127.0.3.1'), connections: 3 },
      { ...modem('356000000000202', 24002, '127.0.3.2'), online: false, problem: 'Port 24002 is already in use' },
    ]).execute();
    const started = new Date(Date.now() - 3_600_000);
    await t.ctx.db.updateTable('hosts').set({ last_seen_at: new Date(Date.now() - 5_000), agent_version: '0.1.0', agent_started_at: started })
      .where('id', '=', hostId).execute();

    const seen = await listed(hostId);
    expect(seen.host).toMatchObject({ online: true, agentVersion: '0.1.0', agentStartedAt: started.toISOString(), modemCount: 2 });
    const age = Date.parse(seen.now) - Date.parse(seen.host.lastSeenAt!);
    expect(age).toBeGreaterThanOrEqual(4_000);
    expect(age).toBeLessThan(30_000);
    expect(seen.host.modems).toEqual([
      { id: expect.any(String), imei: '356000000000201', httpPort: 24001, socksPort: 25001, extIp: '127.0.3.1', online: true, retired: false, connections: 3, problem: null, report: null,
        health: 'online', healthReason: null, healthChangedAt: null },
      { id: expect.any(String), imei: '356000000000202', httpPort: 24002, socksPort: 25002, extIp: '127.0.3.2', online: false, retired: false, connections: 0, problem: 'Port 24002 is already in use', report: null,
        // No agent has reported its health yet: the row's default (the console goes by online).
        health: 'online', healthReason: null, healthChangedAt: null },
    ]);
    expect(seen.host.newModems).toEqual([]);

    // Silent for longer than the protocol allows: offline, with its last contact kept.
    const silent = new Date(Date.now() - (HOST_PROTOCOL.offlineAfterSeconds + 5) * 1000);
    await t.ctx.db.updateTable('hosts').set({ last_seen_at: silent }).where('id', '=', hostId).execute();
    expect((await listed(hostId)).host).toMatchObject({ online: false, lastSeenAt: silent.toISOString(), agentVersion: '0.1.0' });
  });

  it('shows the modems a host reports: new ones with what the device says, known ones with their report; an operator adds a new one', async () => {
    const hostId = await newHost('reporting-host');
    const other = await newHost('other-host');
    const carriers = await t.ctx.db.selectFrom('carriers').select(['id', 'country_id']).execute();
    const carrier = carriers.find((c) => c.country_id === usId)!;
    const foreign = carriers.find((c) => c.country_id !== usId)!;
    // The host already has a modem on the first pair an added modem would get, and the other host one on the second.
    await t.ctx.db.insertInto('modems').values([
      { imei: '356000000000301', host_id: hostId, http_port: 30000, socks_port: 30003, ext_ip: '127.0.4.1', country_id: usId, carrier_id: carrier.id,
        is_shared: false, rotation_interval: null, last_rotated_at: null },
      { imei: '356000000000302', host_id: other, http_port: 30004, socks_port: 30005, ext_ip: '127.0.4.2', country_id: usId, carrier_id: carrier.id,
        is_shared: false, rotation_interval: null, last_rotated_at: null },
    ]).execute();
    const report = (imei: string, r: Record<string, unknown>, hid = hostId) => ({ host_id: hid, imei, report: JSON.stringify(r) });
    await t.ctx.db.insertInto('host_modem_reports').values([
      report('356000000000301', { driver: 'hilink', model: 'E3372h-320', operator: 'T-Mobile', networkType: '4G', signal: { rsrp: -97, sinr: 9 },
        connection: 'connected', extIp: '203.0.113.4', rotations: { total: 4, succeeded: 3, collisions: 1, lastMs: 7400 } }),
      report('867000000000311', { driver: 'hilink', name: 'slot-3', manufacturer: 'Huawei', model: 'E8372h-153', operator: 'Verizon',
        networkType: '4G+', signal: { rsrp: -88, rsrq: -9, sinr: 15 }, connection: 'connected', extIp: '198.51.100.31' }),
      report('867000000000312', { driver: 'modemmanager', model: 'EM7455', operator: 'AT&T', problem: 'the public IP could not be measured through the modem' }),
    ]).execute();

    const before = (await listed(hostId)).host;
    expect(before.modems[0]!.report).toMatchObject({
      driver: 'hilink', model: 'E3372h-320', operator: 'T-Mobile', networkType: '4G', signal: { rsrp: -97, sinr: 9, rssi: null },
      rotations: { total: 4, succeeded: 3, collisions: 1, lastMs: 7400 }, successRate: 0.75,
    });
    expect(before.newModems.map((m) => m.imei)).toEqual(['867000000000311', '867000000000312']);
    expect(before.newModems[0]).toMatchObject({
      imei: '867000000000311', name: 'slot-3', model: 'E8372h-153', operator: 'Verizon', networkType: '4G+', signal: { rsrp: -88, rsrq: -9, sinr: 15 },
      extIp: '198.51.100.31', rotations: null, successRate: null, firstSeenAt: expect.any(String),
    });
    expect((await listed(other)).host.newModems).toEqual([]);

    const adopt = (body: Record<string, unknown>, host = hostId) => call(t, admin.cookie, 'POST', `/api/v1/admin/hosts/${host}/modems`, body);
    // Carrier of another country; a modem this host does not report; a modem another host reports.
    expect((await adopt({ imei: '867000000000311', countryId: usId, carrierId: foreign.id, isShared: false })).json().code).toBe('REFERENCE_INVALID');
    expect((await adopt({ imei: '867000000000399', countryId: usId, carrierId: carrier.id, isShared: false })).statusCode).toBe(404);
    expect((await adopt({ imei: '867000000000311', countryId: usId, carrierId: carrier.id, isShared: false }, other)).statusCode).toBe(404);

    const added = await adopt({ imei: '867000000000311', countryId: usId, carrierId: carrier.id, isShared: true, capacity: 4, rotationInterval: 10 });
    expect(added.statusCode, added.body).toBe(200);
    // Ports: 30000 and 30003 are this host's; 30004/30005 belong to another host, so they are free here.
    expect(added.json().modem).toMatchObject({
      imei: '867000000000311', hostId, httpPort: 30004, socksPort: 30005, extIp: '198.51.100.31', online: true, countryId: usId,
      carrierId: carrier.id, isShared: true, capacity: 4, rotationInterval: 10, usedSlots: 0,
    });
    const row = await t.ctx.db.selectFrom('modems').select(['driver', 'online']).where('imei', '=', '867000000000311').executeTakeFirstOrThrow();
    expect(row).toEqual({ driver: 'hilink', online: true });
    const [entry] = await auditOf(t, 'modem.adopt');
    expect(entry).toMatchObject({ admin_id: admin.id, target_id: added.json().modem.id, before: null,
      after: expect.objectContaining({ imei: '867000000000311', http_port: 30004, driver: 'hilink', reported: expect.objectContaining({ model: 'E8372h-153', operator: 'Verizon' }) }) });

    // A modem with a problem is added offline (its agent brings it online once it serves it); dedicated has capacity 1.
    const second = await adopt({ imei: '867000000000312', countryId: usId, carrierId: carrier.id, isShared: false, capacity: 9 });
    expect(second.json().modem).toMatchObject({ httpPort: 30006, socksPort: 30007, extIp: '', online: false, isShared: false, capacity: 1 });
    expect((await t.ctx.db.selectFrom('modems').select('driver').where('imei', '=', '867000000000312').executeTakeFirstOrThrow()).driver).toBe('modemmanager');
    // Known now: no longer new, and shown with its report; adding it again is refused.
    const after = (await listed(hostId)).host;
    expect(after.newModems).toEqual([]);
    expect(after.modems.find((m) => m.imei === '867000000000311')!.report).toMatchObject({ model: 'E8372h-153' });
    expect((await adopt({ imei: '867000000000311', countryId: usId, carrierId: carrier.id, isShared: false })).json().code).toBe('IMEI_TAKEN');

    // Only operators.
    const customer = await signedIn(t, 'customer');
    const asCustomer = await call(t, customer.cookie, 'POST', `/api/v1/admin/hosts/${hostId}/modems`, { imei: '867000000000311', countryId: usId, carrierId: carrier.id, isShared: false });
    expect(asCustomer.statusCode).toBe(403);
  });
});
