import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announced } from '../../../test/announcements.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, seedTestCatalog, usdtBalance, type Customer } from '../../../test/fixtures.js';

const DAY = 86_400_000;
let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeEach(async () => {
  t = await buildTestApp();
  cat = await seedTestCatalog(t);
});
afterEach(async () => {
  await expectLedgerMatchesBalances(t.ctx.db);
  await t.close();
});

async function buyWeek(c: Customer, tariff = cat.dedicatedWeek) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: tariff.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.modems[0] as { _id: string; expiresAt: string };
}
const notes = async (userId: string) =>
  (await t.ctx.db.selectFrom('notifications').select('text_key').where('user_id', '=', userId).orderBy('created_at').execute()).map((n) => n.text_key);
const port = (id: string) => t.ctx.db.selectFrom('ports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('port lifecycle jobs', () => {
  it('reminds, expires at the expiry and returns the modem to stock after the grace period, each once', async () => {
    const c = await createCustomer(t, 100);
    const p = await buyWeek(c);
    const exp = Date.parse(p.expiresAt);
    // The count is kept with the catalog's offers, dropped by the database's announcement of a change: a job's write
    // (not the customer's own) shows once the announcement is heard.
    const stock = async () => {
      await announced(t);
      return (await t.app.inject({ method: 'GET', url: `/api/v1/modems/count/${cat.usId}?isShared=false` })).json().count;
    };
    const before = await stock();

    await t.app.jobs.runDueJobs(new Date(exp - 2 * DAY));
    expect(await notes(c.id)).toEqual(['purchase_completed', 'expiry_reminder_3d']);
    await t.app.jobs.runDueJobs(new Date(exp + 1000));
    expect((await port(p._id)).status).toBe('expired');
    expect(await notes(c.id)).toEqual(['purchase_completed', 'expiry_reminder_3d', 'expiry_reminder_1d', 'port_expired']);
    expect(await stock()).toBe(before); // still held during the grace period
    await t.app.jobs.runDueJobs(new Date(exp + 3 * DAY + 1000));
    expect((await port(p._id)).status).toBe('released');
    expect(await stock()).toBe(before + 1);
    // Running again changes nothing: every job ran once.
    expect(await t.app.jobs.runDueJobs(new Date(exp + 30 * DAY))).toBe(0);
    expect(await notes(c.id)).toHaveLength(5);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { cookie: c.cookie } });
    expect(list.json()).toEqual([]);
  });

  it('a renewal makes the old term jobs do nothing', async () => {
    const c = await createCustomer(t, 100);
    const p = await buyWeek(c);
    await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/renew', ...json(c.cookie, { basket: { [p._id]: { periods: 1 } } }) });
    await t.app.jobs.runDueJobs(new Date(Date.parse(p.expiresAt) + 1000));
    expect((await port(p._id)).status).toBe('active');
  });

  it('auto-renews from the balance 24 h before expiry, and tells when the balance is short', async () => {
    const rich = await createCustomer(t, 100);
    const poor = await createCustomer(t, 25);
    const a = await buyWeek(rich);
    const b = await buyWeek(poor);
    for (const [c, p] of [[rich, a], [poor, b]] as const) {
      await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${p._id}`, ...json(c.cookie, { autoRenew: true }) });
    }
    const exp = Date.parse(a.expiresAt);
    await t.app.jobs.runDueJobs(new Date(exp - DAY + 1000));
    expect((await port(a._id)).expires_at.getTime()).toBe(exp + 7 * DAY);
    expect(await usdtBalance(t, rich.id)).toBe(100_000_000n - 40_000_000n);
    expect(await notes(rich.id)).toContain('auto_renew_completed');
    expect(await usdtBalance(t, poor.id)).toBe(5_000_000n);
    expect(await notes(poor.id)).toContain('auto_renew_short_balance');
    // Auto-renew is never booked twice.
    await t.app.jobs.runDueJobs(new Date(exp - DAY + 2000));
    expect(await usdtBalance(t, rich.id)).toBe(60_000_000n);
  });

  it('a day port: no reminder of days it does not have, and auto-renewal switched on after buying still renews it', async () => {
    const c = await createCustomer(t, 100);
    const p = await buyWeek(c, cat.dedicatedDay);
    const exp = Date.parse(p.expiresAt);
    // Right after the purchase nothing is due: a 1-day port is not "3 days" or "a day" from its end at its start.
    expect(await t.app.jobs.runDueJobs(new Date())).toBe(0);
    expect(await notes(c.id)).toEqual(['purchase_completed']);
    const res = await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${p._id}`, ...json(c.cookie, { autoRenew: true }) });
    expect(res.statusCode, res.body).toBe(200);
    // A quarter of the term before its end (6 h for a day), as a week's or a month's is renewed a day before.
    await t.app.jobs.runDueJobs(new Date(exp - 6 * 3_600_000 + 1000));
    expect((await port(p._id)).expires_at.getTime()).toBe(exp + DAY);
    expect(await usdtBalance(t, c.id)).toBe(100_000_000n - 2n * BigInt(cat.dedicatedDay.price));
    expect(await notes(c.id)).toEqual(['purchase_completed', 'auto_renew_completed']);
  });
});
