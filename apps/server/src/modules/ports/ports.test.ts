import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, portsAfterAnnouncements, seedTestCatalog, type Customer } from '../purchases/test-fixtures.js';
import { whitelistEntrySchema } from '@cellport/shared/schemas/catalog';

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
    const ok = await patch({ modem_name: 'Scraper', login: 'my_login-1', password: 'S3cret!pass', whitelist: ['203.0.113.5', '10.0.0.0/8', '2001:db8::/32'], rotationInterval: 15, autoRenew: true });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ modem_name: 'Scraper', login: 'my_login-1', password: 'S3cret!pass', whitelist: ['203.0.113.5', '10.0.0.0/8', '2001:db8::/32'], rotationInterval: 15, autoRenew: true });
    for (const bad of [{ login: 'abc' }, { login: 'has space' }, { password: '12345' }, { password: 'with space' },
      { whitelist: ['300.1.1.1'] }, { whitelist: ['10.0.0.0/33'] }, { whitelist: Array(21).fill('10.0.0.1') }, { modem_name: '' },
      { modem_name: 'x'.repeat(61) }, { rotationInterval: -1 }]) {
      const res = await patch(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const other = await createCustomer(t, 1000);
    const otherPort = await buyPort(other);
    const taken = await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${otherPort._id}`, ...json(other.cookie, { login: 'MY_LOGIN-1' }) });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('PROXY_LOGIN_TAKEN');
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
  // The service checks each entry with the shared schema, as the web form does.
  const isWhitelistEntry = (entry: string) => whitelistEntrySchema.safeParse(entry).success;
  it('accepts addresses and CIDR ranges of both families only', () => {
    for (const ok of ['1.2.3.4', '1.2.3.0/24', '0.0.0.0/0', '::1', '2001:db8::/128']) expect(isWhitelistEntry(ok), ok).toBe(true);
    for (const bad of ['1.2.3', '1.2.3.4/33', '::1/129', '1.2.3.4/', '1.2.3.4/8/8', 'example.com', '']) expect(isWhitelistEntry(bad), bad).toBe(false);
  });
});
