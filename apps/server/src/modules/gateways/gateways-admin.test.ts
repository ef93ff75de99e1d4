import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { gatewayTrust } from './gateway-trust.js';
import { createCustomer, json, seedTestCatalog } from '../../../test/fixtures.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';

interface GatewayItem { id: string; name: string; publicHost: string; linkUrl: string; hostCount: number; linkedHostCount: number; createdAt: string }
interface HostItem {
  id: string; name: string;
  gateway: { id: string; name: string; publicHost: string } | null;
  gatewayLink: { state: string; problem: string | null; changedAt: string } | null;
}

describe('admin gateways (issue 18)', () => {
  let t: TestApp;
  let admin: Signed;
  let usId: string;
  let catalog: Awaited<ReturnType<typeof seedTestCatalog>>;
  beforeEach(async () => {
    t = await buildTestApp();
    admin = await signedIn(t);
    catalog = await seedTestCatalog(t);
    usId = catalog.usId;
  });
  afterEach(async () => { await t.close(); });

  const gateways = async () => {
    const res = await call(t, admin.cookie, 'GET', '/api/v1/admin/gateways');
    expect(res.statusCode).toBe(200);
    return res.json() as { items: GatewayItem[]; trustKey: string };
  };
  const addGateway = async (name: string, publicHost = `${name}.example.net`) => {
    const res = await call(t, admin.cookie, 'POST', '/api/v1/admin/gateways', { name, publicHost, linkUrl: `http://${publicHost}:7400` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().gateway as GatewayItem;
  };
  const addHost = async (name: string) => {
    const res = await call(t, admin.cookie, 'POST', '/api/v1/admin/hosts', { name, address: '10.30.0.1' });
    expect(res.statusCode).toBe(200);
    return res.json().host.id as string;
  };
  const hostListed = async (id: string) => {
    const res = await call(t, admin.cookie, 'GET', '/api/v1/admin/hosts');
    expect(res.statusCode).toBe(200);
    return (res.json().items as HostItem[]).find((h) => h.id === id)!;
  };
  const pin = (hostId: string, gatewayId: string | null) => call(t, admin.cookie, 'PATCH', `/api/v1/admin/hosts/${hostId}`, { gatewayId });
  async function addModem(hostId: string, imei: string, httpPort: number, socksPort: number, retired = false) {
    const carrier = await t.ctx.db.selectFrom('carriers').select('id').where('country_id', '=', usId).executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('modems').values({
      imei, host_id: hostId, http_port: httpPort, socks_port: socksPort, ext_ip: '127.0.9.1', country_id: usId, carrier_id: carrier.id,
      is_shared: false, rotation_interval: null, last_rotated_at: null, retired,
    }).execute();
  }

  it('adds, lists, edits and deletes gateways, every write audited; shows the trust key gateways are configured with', async () => {
    const empty = await gateways();
    expect(empty.items).toEqual([]);
    expect(empty.trustKey).toBe(gatewayTrust(t.config.secret).publicKey);
    expect(empty.trustKey).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const created = await call(t, admin.cookie, 'POST', '/api/v1/admin/gateways',
      { name: ' edge-1 ', publicHost: 'GW1.Example.net', linkUrl: 'https://link.example.net:7443' });
    expect(created.statusCode, created.body).toBe(200);
    const gw = created.json().gateway as GatewayItem;
    expect(gw).toMatchObject({ name: 'edge-1', publicHost: 'gw1.example.net', linkUrl: 'https://link.example.net:7443', hostCount: 0, linkedHostCount: 0 });
    expect((await gateways()).items).toEqual([gw]);
    const [create] = await auditOf(t, 'gateway.create');
    expect(create).toMatchObject({ admin_id: admin.id, target_type: 'gateway', target_id: gw.id, before: null,
      after: { id: gw.id, name: 'edge-1', public_host: 'gw1.example.net', link_url: 'https://link.example.net:7443' } });

    const ip = await call(t, admin.cookie, 'POST', '/api/v1/admin/gateways', { name: 'edge-v6', publicHost: '2001:db8::7', linkUrl: 'http://192.0.2.7:7400' });
    expect(ip.statusCode, ip.body).toBe(200);
    expect((await call(t, admin.cookie, 'POST', '/api/v1/admin/gateways', { name: 'edge-1', publicHost: 'other.example.net', linkUrl: 'http://other.example.net' })).json().code)
      .toBe('ALREADY_EXISTS');

    const edited = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/gateways/${gw.id}`, { publicHost: '203.0.113.10' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().gateway).toMatchObject({ id: gw.id, name: 'edge-1', publicHost: '203.0.113.10', linkUrl: 'https://link.example.net:7443' });
    const [update] = await auditOf(t, 'gateway.update');
    expect(update).toMatchObject({ target_id: gw.id, before: { public_host: 'gw1.example.net' }, after: { public_host: '203.0.113.10' } });
    expect((await call(t, admin.cookie, 'PATCH', `/api/v1/admin/gateways/${gw.id}`, { name: 'edge-v6' })).json().code).toBe('ALREADY_EXISTS');
    expect((await call(t, admin.cookie, 'PATCH', '/api/v1/admin/gateways/00000000-0000-4000-8000-000000000000', { name: 'x' })).statusCode).toBe(404);

    const removed = await call(t, admin.cookie, 'DELETE', `/api/v1/admin/gateways/${gw.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await gateways()).items.map((g) => g.name)).toEqual(['edge-v6']);
    const [del] = await auditOf(t, 'gateway.delete');
    expect(del).toMatchObject({ target_id: gw.id, before: { name: 'edge-1' }, after: null });
    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/gateways/${gw.id}`)).statusCode).toBe(404);
  });

  it('refuses what is not a gateway (400): empty or long names, URLs as public hosts, links that are not plain http(s)', async () => {
    const bad = [
      { name: '', publicHost: 'gw.example.net', linkUrl: 'http://gw.example.net:7400' },
      { name: 'x'.repeat(65), publicHost: 'gw.example.net', linkUrl: 'http://gw.example.net:7400' },
      { name: 'gw', publicHost: 'http://gw.example.net', linkUrl: 'http://gw.example.net:7400' },
      { name: 'gw', publicHost: 'gw.example.net:8080', linkUrl: 'http://gw.example.net:7400' },
      { name: 'gw', publicHost: '-gw.example.net', linkUrl: 'http://gw.example.net:7400' },
      { name: 'gw', publicHost: '300.1.1.1', linkUrl: 'http://gw.example.net:7400' },
      { name: 'gw', publicHost: 'gw.example.net', linkUrl: 'ftp://gw.example.net' },
      { name: 'gw', publicHost: 'gw.example.net', linkUrl: 'gw.example.net:7400' },
      { name: 'gw', publicHost: 'gw.example.net', linkUrl: 'http://user:pw@gw.example.net:7400' },
      { name: 'gw', publicHost: 'gw.example.net', linkUrl: 'http://gw.example.net:7400/link?x=1' },
      { name: 'gw', publicHost: 'gw.example.net' },
    ];
    for (const body of bad) {
      const res = await call(t, admin.cookie, 'POST', '/api/v1/admin/gateways', body);
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
    }
    expect((await call(t, admin.cookie, 'PATCH', '/api/v1/admin/gateways/not-a-uuid', { name: 'gw' })).statusCode).toBe(400);
    expect((await gateways()).items).toEqual([]);
    expect(await auditOf(t, 'gateway.create')).toEqual([]);

    const customer = await signedIn(t, 'customer');
    expect((await call(t, customer.cookie, 'GET', '/api/v1/admin/gateways')).statusCode).toBe(403);
    expect((await call(t, customer.cookie, 'POST', '/api/v1/admin/gateways', { name: 'gw', publicHost: 'gw.example.net', linkUrl: 'http://gw.example.net' })).statusCode).toBe(403);
    expect((await call(t, null, 'GET', '/api/v1/admin/gateways')).statusCode).toBe(401);
  });

  it('pins hosts whose ports are free on the gateway, refuses a clash (409) and a delete while pinned (IN_USE); lists each host\'s gateway and link', async () => {
    const gw = await addGateway('edge-pin');
    const other = await addGateway('edge-other');
    const a = await addHost('nat-a');
    const b = await addHost('nat-b');
    const c = await addHost('nat-c');
    await addModem(a, '356000000000901', 31000, 31001);
    await addModem(b, '356000000000902', 31002, 31000); // b's SOCKS port is a's HTTP port
    await addModem(c, '356000000000903', 31004, 31005);
    await addModem(c, '356000000000904', 31001, 31006, true); // retired: serves nothing

    expect((await hostListed(a)).gateway).toBeNull();
    const pinned = await pin(a, gw.id);
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json().host).toMatchObject({ id: a, gateway: { id: gw.id, name: 'edge-pin', publicHost: 'edge-pin.example.net' }, gatewayLink: null });
    const [update] = await auditOf(t, 'host.update');
    expect(update).toMatchObject({ target_id: a, before: { gateway_id: null }, after: { gateway_id: gw.id } });

    const clash = await pin(b, gw.id);
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ code: 'GATEWAY_PORT_CONFLICT', port: 31000, host: 'nat-a', error: expect.stringContaining('31000') });
    expect((await hostListed(b)).gateway).toBeNull();
    expect(await auditOf(t, 'host.update')).toHaveLength(1);
    // Another gateway listens on its own ports; the retired modem's port does not count.
    expect((await pin(b, other.id)).statusCode).toBe(200);
    expect((await pin(c, gw.id)).statusCode).toBe(200);
    // Renaming a pinned host is not a new pin.
    expect((await call(t, admin.cookie, 'PATCH', `/api/v1/admin/hosts/${c}`, { name: 'nat-c2' })).json().host).toMatchObject({ name: 'nat-c2', gateway: { id: gw.id } });
    expect((await pin(a, '00000000-0000-4000-8000-000000000000')).json().code).toBe('REFERENCE_INVALID');

    // The agent's last report of its link; linked now = up and the host online.
    const recent = new Date(Date.now() - 5_000);
    await t.ctx.db.insertInto('host_gateway_links').values([
      { host_id: a, epoch: 3, state: 'up', problem: null, changed_at: recent },
      { host_id: c, epoch: 1, state: 'refused', problem: 'ticket expired', changed_at: recent },
    ]).execute();
    await t.ctx.db.updateTable('hosts').set({ last_seen_at: new Date() }).where('id', 'in', [a, c]).execute();
    expect((await hostListed(a)).gatewayLink).toEqual({ state: 'up', problem: null, changedAt: recent.toISOString() });
    expect((await hostListed(c)).gatewayLink).toEqual({ state: 'refused', problem: 'ticket expired', changedAt: recent.toISOString() });
    let listed = (await gateways()).items;
    expect(listed.find((g) => g.id === gw.id)).toMatchObject({ hostCount: 2, linkedHostCount: 1 });
    expect(listed.find((g) => g.id === other.id)).toMatchObject({ hostCount: 1, linkedHostCount: 0 });
    // Silent past the heartbeat window: its stale "up" is not a link.
    await t.ctx.db.updateTable('hosts').set({ last_seen_at: new Date(Date.now() - (HOST_PROTOCOL.offlineAfterSeconds + 5) * 1000) }).where('id', '=', a).execute();
    expect((await gateways()).items.find((g) => g.id === gw.id)).toMatchObject({ hostCount: 2, linkedHostCount: 0 });

    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/gateways/${gw.id}`)).json().code).toBe('IN_USE');
    // Direct again: no gateway, and its old link report is not shown as a link.
    expect((await pin(a, null)).json().host).toMatchObject({ gateway: null, gatewayLink: null });
    expect((await pin(c, null)).statusCode).toBe(200);
    // b's ports are free on the gateway now that a left.
    expect((await pin(b, gw.id)).statusCode).toBe(200);
    expect((await pin(b, null)).statusCode).toBe(200);
    listed = (await gateways()).items;
    expect(listed.find((g) => g.id === gw.id)).toMatchObject({ hostCount: 0, linkedHostCount: 0 });
    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/gateways/${gw.id}`)).statusCode).toBe(200);
  });

  it('keeps the ports of a gateway\'s hosts apart when modems are added, moved, brought back or adopted on a pinned host', async () => {
    const gw = await addGateway('edge-modems');
    const a = await addHost('behind-a');
    const b = await addHost('behind-b');
    const direct = await addHost('direct-c');
    await addModem(a, '356000000000911', 30000, 30001);
    await addModem(b, '356000000000912', 30004, 30005, true); // retired; b serves nothing yet
    expect((await pin(a, gw.id)).statusCode).toBe(200);
    expect((await pin(b, gw.id)).statusCode).toBe(200);
    const carrier = await t.ctx.db.selectFrom('carriers').select('id').where('country_id', '=', usId).executeTakeFirstOrThrow();
    const modem = (hostId: string, imei: string, httpPort: number, socksPort: number) => call(t, admin.cookie, 'POST', '/api/v1/admin/modems',
      { imei, hostId, httpPort, socksPort, extIp: '192.0.2.50', countryId: usId, carrierId: carrier.id, isShared: false });

    const clash = await modem(b, '356000000000913', 30002, 30001);
    expect([clash.statusCode, clash.json().code, clash.json().port, clash.json().host]).toEqual([409, 'GATEWAY_PORT_CONFLICT', 30001, 'behind-a']);
    // The same ports on a direct host are its own business.
    expect((await modem(direct, '356000000000914', 30000, 30001)).statusCode).toBe(200);
    const ok = await modem(b, '356000000000915', 30002, 30003);
    expect(ok.statusCode, ok.body).toBe(200);
    const id = ok.json().modem.id as string;
    const moved = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/modems/${id}`, { httpPort: 30000 });
    expect([moved.statusCode, moved.json().code]).toEqual([409, 'GATEWAY_PORT_CONFLICT']);
    expect((await call(t, admin.cookie, 'PATCH', `/api/v1/admin/modems/${id}`, { extIp: '192.0.2.51' })).statusCode).toBe(200);
    // b's retired modem would serve 30004/30005 again: free, so it may; a modem of a on them may not then.
    const retired = await t.ctx.db.selectFrom('modems').select('id').where('imei', '=', '356000000000912').executeTakeFirstOrThrow();
    expect((await call(t, admin.cookie, 'PATCH', `/api/v1/admin/modems/${retired.id}`, { retired: false })).statusCode).toBe(200);
    expect((await modem(a, '356000000000916', 30006, 30005)).json().code).toBe('GATEWAY_PORT_CONFLICT');

    // An adopted modem gets the lowest pair free on its host and on every other host behind the gateway.
    await t.ctx.db.insertInto('host_modem_reports').values({ host_id: b, imei: '867000000000917', report: JSON.stringify({ driver: 'hilink', extIp: '198.51.100.17' }) }).execute();
    const adopted = await call(t, admin.cookie, 'POST', `/api/v1/admin/hosts/${b}/modems`, { imei: '867000000000917', countryId: usId, carrierId: carrier.id, isShared: false });
    expect(adopted.statusCode, adopted.body).toBe(200);
    expect(adopted.json().modem).toMatchObject({ httpPort: 30006, socksPort: 30007 });

    // A CSV import checks the same, against the database and the rows above.
    const carrierName = (await t.ctx.db.selectFrom('carriers').select('name').where('id', '=', carrier.id).executeTakeFirstOrThrow()).name;
    const csv = ['IMEI,host,http_port,socks_port,ext_ip,country,carrier,region,isShared,capacity',
      `356000000000921,behind-b,30010,30000,192.0.2.61,US,${carrierName},,false,`,
      `356000000000922,behind-b,30012,30013,192.0.2.62,US,${carrierName},,false,`,
      `356000000000923,behind-a,30013,30014,192.0.2.63,US,${carrierName},,false,`,
      `356000000000924,direct-c,30012,30013,192.0.2.64,US,${carrierName},,false,`].join('\n');
    const imported = await call(t, admin.cookie, 'POST', '/api/v1/admin/modems/import', csv, { 'content-type': 'text/csv' });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().rows.map((r: { ok: boolean; code: string | null; field: string | null }) => [r.ok, r.code, r.field])).toEqual([
      [false, 'CSV_GATEWAY_PORT', 'socks_port'], [true, null, null], [false, 'CSV_GATEWAY_PORT', 'http_port'], [true, null, null],
    ]);
    expect(imported.json().rows[0].error).toBe('The port in column socks_port is used by another host behind the same gateway');
  });

  it('customers reach a port on a pinned host at the gateway\'s public host', async () => {
    const customer = await createCustomer(t, 100);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(customer.cookie, {
      tariff_id: catalog.dedicatedMonth.id, country_id: usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const port = await t.ctx.db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .select(['m.host_id', 'h.address']).where('p.user_id', '=', customer.id).executeTakeFirstOrThrow();
    const hostOf = async () => ((await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(customer.cookie) })).json() as Array<{ host: string }>)[0]!.host;
    expect(await hostOf()).toBe(port.address);

    const gw = await addGateway('edge-customers', 'proxy.example.org');
    expect((await pin(port.host_id, gw.id)).statusCode).toBe(200);
    await expect.poll(hostOf, { timeout: 5_000 }).toBe('proxy.example.org');
    expect((await pin(port.host_id, null)).statusCode).toBe(200);
    await expect.poll(hostOf, { timeout: 5_000 }).toBe(port.address);
  });
});
