import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import { buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { seedTestCatalog } from '../../purchases/test-fixtures.js';
import { hostForKey } from '../../traffic/host-keys.js';
import { auditOf, call, signedIn, type Signed } from '../admin.test-helpers.js';

interface HostItem {
  id: string; name: string; hasKey: boolean; lastSeenAt: string | null; online: boolean; agentVersion: string | null;
  agentStartedAt: string | null; modemCount: number;
  modems: { imei: string; httpPort: number; socksPort: number; extIp: string; online: boolean; connections: number; problem: string | null }[];
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
      { id: expect.any(String), imei: '356000000000201', httpPort: 24001, socksPort: 25001, extIp: '127.0.3.1', online: true, retired: false, connections: 3, problem: null },
      { id: expect.any(String), imei: '356000000000202', httpPort: 24002, socksPort: 25002, extIp: '127.0.3.2', online: false, retired: false, connections: 0, problem: 'Port 24002 is already in use' },
    ]);

    // Silent for longer than the protocol allows: offline, with its last contact kept.
    const silent = new Date(Date.now() - (HOST_PROTOCOL.offlineAfterSeconds + 5) * 1000);
    await t.ctx.db.updateTable('hosts').set({ last_seen_at: silent }).where('id', '=', hostId).execute();
    expect((await listed(hostId)).host).toMatchObject({ online: false, lastSeenAt: silent.toISOString(), agentVersion: '0.1.0' });
  });
});
