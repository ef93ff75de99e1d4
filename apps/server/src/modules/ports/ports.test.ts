import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, portsAfterAnnouncements, seedTestCatalog, type Customer } from '../../../test/fixtures.js';
import { CATALOG_MESSAGES, proxyPasswordSchema, whitelistEntrySchema } from '@cellport/shared/schemas/catalog';
import { newProxyPassword } from './port-credentials.js';

let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeEach(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '30', MODEM_SIM_SAME_IP_RATE: '0' });
  cat = await seedTestCatalog(t);
});
afterEach(async () => {
  await expectLedgerMatchesBalances(t.ctx.db);
  await t.close();
});

async function buyPort(c: Customer) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.modems[0] as { _id: string; ext_ip: string; rotationLink: string; login: string };
}

describe('a suspended port', () => {
  it('shows as suspended in the customer\'s list (listed before, so the cached list must follow), and not after resuming', async () => {
    const c = await createCustomer(t, 1000);
    const port = await buyPort(c);
    const suspended = async () => (await portsAfterAnnouncements<{ _id: string; suspended: boolean }>(t, c.cookie)).find((p) => p._id === port._id)?.suspended;
    expect(await suspended()).toBe(false);
    await t.ctx.db.updateTable('ports').set({ suspended_at: new Date() }).where('id', '=', port._id).execute();
    expect(await suspended()).toBe(true);
    await t.ctx.db.updateTable('ports').set({ suspended_at: null }).where('id', '=', port._id).execute();
    expect(await suspended()).toBe(false);
  });
});

describe('managing ports', () => {
  it('changes name, credentials, whitelist, interval and auto-renew, and validates each', async () => {
    const c = await createCustomer(t, 1000);
    const port = await buyPort(c);
    const patch = (body: unknown) => t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${port._id}`, ...json(c.cookie, body) });
    const ok = await patch({ modem_name: 'Scraper', login: 'my_login-1', password: 'S3cret!pass', whitelist: ['203.0.113.5', '198.51.0.0/16', '2001:db8:1::/48'], rotationInterval: 15, autoRenew: true });
    expect(ok.statusCode, ok.body).toBe(200);
    // A chosen login carries the account's prefix (decision 035).
    const prefix = (await t.ctx.db.selectFrom('proxy_login_prefixes').select('prefix').where('user_id', '=', c.id).executeTakeFirstOrThrow()).prefix;
    expect(prefix).toMatch(/^[a-z0-9]{5}$/);
    expect(ok.json()).toMatchObject({ modem_name: 'Scraper', login: `${prefix}.my_login-1`, password: 'S3cret!pass', whitelist: ['203.0.113.5', '198.51.0.0/16', '2001:db8:1::/48'], rotationInterval: 15, autoRenew: true });
    for (const bad of [{ login: 'abc' }, { login: 'has space' }, { login: 'zzzzz.someone' }, { password: '12345' }, { password: 'with space1x' },
      { password: 'Abc12!' }, { password: 'onlyletters!' }, { password: '1234567890' }, { password: 'pass:word12' }, { password: 'pass@word12' },
      { whitelist: ['300.1.1.1'] }, { whitelist: ['10.0.0.0/33'] }, { whitelist: Array(21).fill('198.51.100.1') }, { modem_name: '' },
      { modem_name: 'x'.repeat(61) }, { rotationInterval: -1 }]) {
      const res = await patch(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    // The login as listed, sent back with the prefix, is the same login.
    const same = await patch({ login: `${prefix}.my_login-1` });
    expect(same.json().login).toBe(`${prefix}.my_login-1`);
  });

  it('does not tell a customer which logins others use: a chosen login never clashes with another account\'s', async () => {
    const c = await createCustomer(t, 1000);
    const other = await createCustomer(t, 1000);
    const [mine, mine2, theirs] = [await buyPort(c), await buyPort(c), await buyPort(other)];
    const patch = (who: Customer, id: string, body: unknown) => t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${id}`, ...json(who.cookie, body) });
    const taken = await patch(other, theirs._id, { login: 'office-1' });
    expect(taken.statusCode, taken.body).toBe(200);
    // The same name, and the other account's full login: both are this customer's own login, never a 409.
    const sameName = await patch(c, mine._id, { login: 'office-1' });
    expect(sameName.statusCode, sameName.body).toBe(200);
    expect(sameName.json().login).not.toBe(taken.json().login);
    const theirFull = await patch(c, mine._id, { login: taken.json().login });
    expect(theirFull.statusCode).toBe(400);
    expect(theirFull.json().code).toBe('VALIDATION');
    // A generated login is no chosen name's clash either: it has no prefix.
    expect(theirs.login).toMatch(/^u[a-z0-9]{10}$/);
    const generated = await patch(c, mine._id, { login: theirs.login });
    expect(generated.statusCode).toBe(200);
    // Only the customer's own ports can clash, and saying so tells them nothing new.
    const own = await patch(c, mine2._id, { login: 'OFFICE-1' });
    expect(own.statusCode).toBe(200);
    const ownClash = await patch(c, mine2._id, { login: generated.json().login });
    expect(ownClash.statusCode).toBe(409);
    expect(ownClash.json()).toMatchObject({ code: 'PROXY_LOGIN_TAKEN', error: expect.stringContaining('your ports') });
  });

  it('generates strong passwords a form can send back: 14 letters and digits, never : or @', () => {
    for (let i = 0; i < 500; i++) {
      const password = newProxyPassword();
      expect(password).toMatch(/^[A-Za-z0-9]{14}$/);
      expect(proxyPasswordSchema.safeParse(password).success, password).toBe(true);
    }
  });

  it('rotates with old and new IP, at most once a minute, and by a link that a new link replaces', async () => {
    const c = await createCustomer(t, 1000);
    const port = await buyPort(c);
    const events: unknown[] = [];
    t.ctx.bus.on('modem:status', (e) => events.push(e));
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/rotate`, ...json(c.cookie) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.old_ip).toBe(port.ext_ip);
    expect(body.new_ip).not.toBe(port.ext_ip);
    expect(body.applyStatus).toBe('idle');
    expect(events.map((e) => (e as { applyStatus: string }).applyStatus)).toEqual(['rotating', 'rotating', 'applying', 'idle']);
    expect(events[0]).toMatchObject({ userIds: [c.id] });

    const again = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/rotate`, ...json(c.cookie) });
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('ROTATION_TOO_SOON');
    expect(again.json().retryAfter).toBeGreaterThan(50);

    // The link rotates without a session once the minute has passed.
    await t.ctx.db.updateTable('ports').set({ last_rotated_at: new Date(Date.now() - 61_000) }).where('id', '=', port._id).execute();
    const token = port.rotationLink.split('/').pop()!;
    const viaLink = await t.app.inject({ method: 'GET', url: `/api/v1/rotate/${token}` });
    expect(viaLink.statusCode, viaLink.body).toBe(200);
    expect(viaLink.json().old_ip).toBe(body.new_ip);

    const fresh = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/rotation-link`, ...json(c.cookie) });
    expect(fresh.json().rotationLink).not.toBe(port.rotationLink);
    await t.ctx.db.updateTable('ports').set({ last_rotated_at: null }).where('id', '=', port._id).execute();
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/rotate/${token}` })).statusCode).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { cookie: c.cookie } });
    expect(list.json()[0].rotationLink).toBe(fresh.json().rotationLink);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/rotate/unknown-token' })).statusCode).toBe(404);
  });

  it('retries a rotation that came back with the same IP', async () => {
    await t.close();
    t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '10', MODEM_SIM_SAME_IP_RATE: '1' });
    cat = await seedTestCatalog(t);
    const c = await createCustomer(t, 1000);
    const port = await buyPort(c);
    const started = Date.now();
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/rotate`, ...json(c.cookie) });
    // Always the same IP: 1 try + 3 retries, then reported as failed with the IP unchanged.
    expect(res.json()).toEqual({ old_ip: port.ext_ip, new_ip: port.ext_ip, applyStatus: 'failed' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 6);
  });

  it('answers 404 for every cross-account access to a port', async () => {
    const owner = await createCustomer(t, 1000);
    const other = await createCustomer(t, 1000);
    const port = await buyPort(owner);
    const calls = [
      { method: 'PATCH' as const, url: `/api/v1/modems/${port._id}`, body: { modem_name: 'mine now' } },
      { method: 'POST' as const, url: `/api/v1/modems/${port._id}/rotate`, body: undefined },
      { method: 'POST' as const, url: `/api/v1/modems/${port._id}/rotation-link`, body: undefined },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ method: call.method, url: call.url, ...json(other.cookie, call.body) });
      expect(res.statusCode, call.url).toBe(404);
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { cookie: other.cookie } });
    expect(list.json()).toEqual([]);
    const mine = await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { cookie: owner.cookie } });
    expect(mine.json()[0]).toMatchObject({ modem_name: 'Proxy 1', lastRotatedAt: null });
  });
});

describe('whitelist entries', () => {
  // The service checks each entry with the shared rules, as the web form does.
  const isWhitelistEntry = (entry: string) => whitelistEntrySchema.safeParse(entry).success;
  it('accepts public addresses and ranges up to an IPv4 /16 or an IPv6 /48 only', () => {
    for (const ok of ['1.2.3.4', '1.2.3.0/24', '81.2.0.0/16', '2a00:1450:4001::/48', '2a00:1450:4001:81b::200e', '203.0.113.7']) expect(isWhitelistEntry(ok), ok).toBe(true);
    for (const bad of ['1.2.3', '1.2.3.4/33', '::1/129', '1.2.3.4/', '1.2.3.4/8/8', 'example.com', '', '01.2.3.4', '1:2:3:4:5:6:7:8:9']) expect(isWhitelistEntry(bad), bad).toBe(false);
  });
  it('refuses whole-internet and other too broad ranges', () => {
    for (const broad of ['0.0.0.0/0', '::/0', '81.0.0.0/8', '81.2.0.0/15', '2a00::/12', '2a00:1450::/47']) {
      const result = whitelistEntrySchema.safeParse(broad);
      expect(result.error?.issues[0]?.message, broad).toBe(CATALOG_MESSAGES.whitelistTooBroad);
    }
  });
  it('refuses ranges no customer connects from: private, loopback, link-local, CGNAT, mapped and special', () => {
    for (const special of ['10.1.2.3', '192.168.1.0/24', '172.16.5.5', '127.0.0.1', '100.64.1.1', '169.254.1.1', '0.0.0.0',
      '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:81.2.3.4', '64:ff9b::1.2.3.4', '2002:c000:204::1', 'ff02::1']) {
      const result = whitelistEntrySchema.safeParse(special);
      expect(result.error?.issues[0]?.message, special).toBe(CATALOG_MESSAGES.whitelistNotPublic);
    }
  });
});
