import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDesiredStates } from '../hosts/host-state.js';
import { HostStateRepository } from '../hosts/index.js';
import { buildCountingApp, type CountingApp } from '../notifications/test-support.js';
import { createCustomer, json, portsAfterAnnouncements, seedTestCatalog, type Customer } from '../../../test/fixtures.js';

// Issue 28, item 10 (decisions 036, 045): a failover must not make the customer reconfigure their clients. Listening
// ports belong to the port: moving to another modem of its host keeps its host and ports; a move to another direct
// host keeps the ports and says plainly that the host changed; numbers in use where it arrives are replaced by new
// ones, said just as plainly. Either way the message is a service e-mail: sent to a customer who did not agree to
// news, without an unsubscribe footer. (Behind one gateway the host stays too: failover-process.test.ts.)

const MINUTE = 60_000;
let t: CountingApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
let c: Customer;

beforeEach(async () => {
  t = await buildCountingApp({ MODEM_CONTROL: 'simulated' });
  cat = await seedTestCatalog(t);
  // No marketing consent: the default at sign-up when the box is not ticked.
  c = await createCustomer(t, 1000);
});
afterEach(async () => { await t.close(); });

interface Listed { _id: string; IMEI: string; host: string; http_port: number; socks_port: number; ext_ip: string }

async function buyOne(): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.modems as Array<{ _id: string }>)[0]!._id;
}

const modemRow = (id: string) => t.ctx.db.selectFrom('modems').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const portModem = async (portId: string) =>
  (await t.ctx.db.selectFrom('ports').select('modem_id').where('id', '=', portId).executeTakeFirstOrThrow()).modem_id;

/**
 * Two free dedicated modems a replacement may take (the same country, carrier and region as `modemId`'s: other free
 * US modems made so), by IMEI; every other such modem retired.
 */
async function twoSiblings(modemId: string) {
  const m = await modemRow(modemId);
  const free = await t.ctx.db.selectFrom('modems').select('id').where('id', '<>', m.id).where('country_id', '=', m.country_id)
    .where('is_shared', '=', false).where('retired', '=', false).where('used_slots', '=', 0).orderBy('imei').execute();
  const [a, b, ...rest] = free.map((r) => r.id);
  await t.ctx.db.updateTable('modems').set({ carrier_id: m.carrier_id, region_id: m.region_id }).where('id', 'in', [a!, b!]).execute();
  if (rest.length) await t.ctx.db.updateTable('modems').set({ retired: true }).where('id', 'in', rest).execute();
  return t.ctx.db.selectFrom('modems').selectAll().where('id', 'in', [a!, b!]).orderBy('imei').execute();
}

/** A second host, reached at its own address, with `modemId` moved onto it (ports of its own). */
async function moveToOtherHost(modemId: string): Promise<string> {
  const host = await t.ctx.db.insertInto('hosts').values({ name: 'us2.proxy.cellport.local', address: 'us2.example.net' })
    .returning('id').executeTakeFirstOrThrow();
  await t.ctx.db.updateTable('modems').set({ host_id: host.id, http_port: 41000, socks_port: 41001 }).where('id', '=', modemId).execute();
  return host.id;
}

async function failOver(modemId: string): Promise<void> {
  await t.ctx.db.updateTable('modems')
    .set({ online: false, health: 'offline', health_reason: 'no answer', health_changed_at: new Date(Date.now() - 11 * MINUTE) })
    .where('id', '=', modemId).execute();
  await t.app.jobs.runDueJobs();
}

const listed = async (portId: string) => (await portsAfterAnnouncements<Listed>(t, c.cookie)).find((p) => p._id === portId)!;
const bell = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/notifications', ...json(c.cookie) })).json().data as Array<{ text: string }>;
const mails = async () => {
  await t.settled();
  const { email } = await t.ctx.db.selectFrom('users').select('email').where('id', '=', c.id).executeTakeFirstOrThrow();
  return t.ctx.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', email).orderBy('created_at').execute();
};

describe('a replacement keeps the customer\'s address', () => {
  it('within the host: same host and ports, served by the new modem; preferred over a modem of another host', async () => {
    const portId = await buyOne();
    const oldId = await portModem(portId);
    const before = await listed(portId);
    const old = await modemRow(oldId);
    // The first free sibling by IMEI (which the purchase path would take) is on another host; a later one is on ours.
    const free = await twoSiblings(oldId);
    await moveToOtherHost(free[0]!.id);
    const sameHost = free[1]!;

    await failOver(oldId);

    expect(await portModem(portId)).toBe(sameHost.id);
    const after = await listed(portId);
    expect({ host: after.host, http: after.http_port, socks: after.socks_port })
      .toEqual({ host: before.host, http: before.http_port, socks: before.socks_port });
    expect(after.IMEI).toBe(sameHost.imei);
    // The modems keep their own numbers; the port's own listener (where the customer connects) now leads to the new one.
    expect(await modemRow(sameHost.id)).toMatchObject({ http_port: sameHost.http_port, socks_port: sameHost.socks_port });
    expect(await modemRow(oldId)).toMatchObject({ http_port: old.http_port, socks_port: old.socks_port });
    const state = (await loadDesiredStates(new HostStateRepository(t.ctx.db), [old.host_id])).get(old.host_id)!.state;
    expect(state.portListeners).toBe(true);
    const serving = state.modems.find((m) => m.ports.some((p) => p.id === portId));
    expect(serving?.imei).toBe(sameHost.imei);
    expect(serving?.ports.find((p) => p.id === portId)?.listen).toEqual({ httpPort: old.http_port, socksPort: old.socks_port });

    expect((await bell())[0]!.text).toMatch(/moved to another modem because its modem was offline too long\. Nothing to change on your side/);
    const audit = await t.ctx.db.selectFrom('audit_log').select('after').where('target_id', '=', portId).where('action', '=', 'port.replace').executeTakeFirstOrThrow();
    expect(audit.after).toMatchObject({ addressKept: true, httpPort: old.http_port });

    // A service e-mail, though the customer never agreed to news: no consent note, no unsubscribe link.
    const sent = await mails();
    const replaced = sent.filter((m) => m.subject === 'Your proxy moved to another modem');
    expect(replaced).toHaveLength(1);
    expect(replaced[0]!.text).toContain('Nothing to change on your side');
    for (const part of [replaced[0]!.text, replaced[0]!.html]) {
      expect(part).not.toMatch(/unsubscribe/i);
      expect(part).not.toContain('agreed to get news');
    }
  });

  it('to another direct host: the same ports on the new host, said plainly, by a service e-mail', async () => {
    const portId = await buyOne();
    const oldId = await portModem(portId);
    const before = await listed(portId);
    const free = await twoSiblings(oldId);
    await moveToOtherHost(free[0]!.id);
    await t.ctx.db.updateTable('modems').set({ retired: true }).where('id', '=', free[1]!.id).execute();

    await failOver(oldId);

    expect(await portModem(portId)).toBe(free[0]!.id);
    const after = await listed(portId);
    expect(after).toMatchObject({ host: 'us2.example.net', http_port: before.http_port, socks_port: before.socks_port });
    expect(await modemRow(oldId)).toMatchObject({ http_port: before.http_port, socks_port: before.socks_port });
    expect((await bell())[0]!.text)
      .toContain(`but its address changed: connect to us2.example.net, port ${before.http_port} (HTTP) or ${before.socks_port} (SOCKS5)`);
    const replaced = (await mails()).filter((m) => m.subject === 'Your proxy moved to another modem');
    expect(replaced).toHaveLength(1);
    expect(replaced[0]!.text).not.toMatch(/unsubscribe/i);
  });

  it('numbers in use on the new host: the port gets new ones no modem or port of the farm uses, and is told them', async () => {
    const portId = await buyOne();
    const other = await createCustomer(t, 1000);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(other.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const occupantId = (bought.json().data.modems as Array<{ _id: string }>)[0]!._id;
    const oldId = await portModem(portId);
    const before = await listed(portId);
    const free = await twoSiblings(oldId);
    const otherHost = await moveToOtherHost(free[0]!.id);
    await t.ctx.db.updateTable('modems').set({ retired: true }).where('id', '=', free[1]!.id).execute();
    // The other customer's port, on a modem of the new host, already listens on our port's numbers there.
    const old = await modemRow(oldId);
    const spare = await t.ctx.db.insertInto('modems').values({
      imei: '359999000000043', host_id: otherHost, http_port: 41100, socks_port: 41101, ext_ip: '127.0.43.1',
      country_id: old.country_id, carrier_id: old.carrier_id, is_shared: false, used_slots: 1,
      rotation_interval: null, last_rotated_at: null,
    }).returning('id').executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('ports').set({ modem_id: spare.id, http_port: before.http_port, socks_port: before.socks_port })
      .where('id', '=', occupantId).execute();

    await failOver(oldId);

    expect(await portModem(portId)).toBe(free[0]!.id);
    const after = await listed(portId);
    expect(after.host).toBe('us2.example.net');
    expect(after.http_port).not.toBe(before.http_port);
    expect(after.socks_port).toBe(after.http_port + 1);
    const used = await t.ctx.db.selectFrom('modems').select(['http_port', 'socks_port']).execute();
    expect(used.flatMap((m) => [m.http_port, m.socks_port])).not.toContain(after.http_port);
    expect((await bell())[0]!.text)
      .toContain(`but its address changed: connect to us2.example.net, port ${after.http_port} (HTTP) or ${after.socks_port} (SOCKS5)`);
  });

  it('at the customer\'s request: the answer says the address stayed', async () => {
    const portId = await buyOne();
    const before = await listed(portId);
    await twoSiblings(await portModem(portId));
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${portId}/replacement`, ...json(c.cookie) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'moved', addressKept: true });
    const after = await listed(portId);
    expect([after.host, after.http_port, after.socks_port]).toEqual([before.host, before.http_port, before.socks_port]);
    expect((await bell())[0]!.text).toMatch(/moved to another modem as you asked\. Nothing to change on your side/);
  });
});
