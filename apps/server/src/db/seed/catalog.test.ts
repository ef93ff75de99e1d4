import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { seedCatalog, seededModemPorts } from './catalog.js';

let t: TestApp;
beforeAll(async () => { t = await buildTestApp(); });
afterAll(async () => { await t.close(); });

const seededHosts = () => t.ctx.db.selectFrom('hosts').select(['id', 'name', 'address']).where('name', 'like', '%.proxy.cellport.local').orderBy('name').execute();
const seededModems = () => t.ctx.db.selectFrom('modems').innerJoin('hosts', 'hosts.id', 'modems.host_id')
  .select(['modems.id', 'modems.imei', 'modems.http_port', 'modems.socks_port', 'modems.ext_ip', 'modems.driver', 'hosts.name as host'])
  .where('hosts.name', 'like', '%.proxy.cellport.local').where('modems.imei', 'like', '35%').orderBy('modems.imei').execute();

describe('the demo catalog for the embedded agent', () => {
  it('reaches the demo hosts at PUBLIC_URL\'s host name; each modem has its own ports and its own loopback address', async () => {
    await seedCatalog(t.ctx);
    expect((await seededHosts()).map((h) => h.address)).toEqual(['localhost', 'localhost', 'localhost', 'localhost']);
    const modems = await seededModems();
    expect(modems).toHaveLength(45);
    const ports = modems.flatMap((m) => [m.http_port, m.socks_port]);
    expect(new Set(ports).size).toBe(90);
    for (const p of ports) {
      expect(p).toBeGreaterThanOrEqual(1024);
      expect(p).toBeLessThanOrEqual(65535);
      expect(p).not.toBe(t.config.PORT);
    }
    const ips = modems.map((m) => m.ext_ip);
    expect(new Set(ips).size).toBe(45);
    for (const ip of ips) {
      expect(ip).toMatch(/^127\.0\.\d{1,3}\.\d{1,3}$/);
      expect(ip).not.toBe('127.0.0.1');
    }
    // One block of loopback addresses per host.
    const usModems = modems.filter((m) => m.host === 'us1.proxy.cellport.local');
    expect(usModems.every((m) => m.ext_ip.startsWith('127.0.1.'))).toBe(true);
    expect(modems.every((m) => m.driver === 'simulated')).toBe(true);
  });

  it('keeps the listening ports clear of the app\'s own port', () => {
    for (const appPort of [21000, 21001, 21089]) {
      const all = Array.from({ length: 45 }, (_, i) => seededModemPorts(i, appPort)).flatMap((p) => [p.http, p.socks]);
      expect(all).not.toContain(appPort);
      expect(Math.max(...all)).toBeLessThanOrEqual(65535);
    }
  });

  it('takes another base (SEED_MODEM_PORT_BASE), moved past the app\'s port when that falls inside', () => {
    const all = (appPort: number, base: number) => Array.from({ length: 45 }, (_, i) => seededModemPorts(i, appPort, base)).flatMap((p) => [p.http, p.socks]);
    expect(all(3000, 25000)[0]).toBe(25000);
    expect(Math.max(...all(3000, 25000))).toBe(25089);
    expect(all(25010, 25000)).not.toContain(25010);
    expect(Math.min(...all(25010, 25000))).toBeGreaterThan(25010);
  });

  it('corrects a database seeded by the previous version, once, and leaves what an operator or an agent set', async () => {
    // The previous seed: documentation IPs, ports 20000+n / 30000+n, the host name as its address.
    const modems = await seededModems();
    for (const [i, m] of modems.entries()) {
      await t.ctx.db.updateTable('modems').set({ http_port: 20001 + i, socks_port: 30001 + i, ext_ip: `198.51.100.${i + 10}` }).where('id', '=', m.id).execute();
    }
    for (const h of await seededHosts()) await t.ctx.db.updateTable('hosts').set({ address: h.name }).where('id', '=', h.id).execute();
    // An agent rotated one modem to a loopback address; an operator added a modem of their own.
    const rotated = modems[3]!;
    await t.ctx.db.updateTable('modems').set({ ext_ip: '127.0.200.9' }).where('id', '=', rotated.id).execute();
    const us = modems[0]!;
    const model = await t.ctx.db.selectFrom('modems').selectAll().where('id', '=', us.id).executeTakeFirstOrThrow();
    const operator = await t.ctx.db.insertInto('modems').values({
      imei: '861234567890123', host_id: model.host_id, http_port: 40001, socks_port: 40002, ext_ip: '203.0.113.200',
      country_id: model.country_id, carrier_id: model.carrier_id, region_id: model.region_id, is_shared: false,
    }).returning('id').executeTakeFirstOrThrow();

    const ctx = { ...t.ctx, config: { ...t.ctx.config, publicUrl: 'https://proxies.example.net:8443' } };
    await seedCatalog(ctx);
    await seedCatalog(ctx); // a second start changes nothing more
    expect((await seededHosts()).every((h) => h.address === 'proxies.example.net')).toBe(true);
    const after = await seededModems();
    const byId = new Map(after.map((m) => [m.id, m]));
    for (const m of modems) {
      if (m.id === rotated.id) continue;
      expect(byId.get(m.id)).toMatchObject({ http_port: m.http_port, socks_port: m.socks_port, ext_ip: m.ext_ip });
    }
    expect(byId.get(rotated.id)).toMatchObject({ ext_ip: '127.0.200.9', http_port: 20004, socks_port: 30004 });
    expect(await t.ctx.db.selectFrom('modems').select(['http_port', 'socks_port', 'ext_ip']).where('id', '=', operator.id).executeTakeFirstOrThrow())
      .toEqual({ http_port: 40001, socks_port: 40002, ext_ip: '203.0.113.200' });
  });
});
