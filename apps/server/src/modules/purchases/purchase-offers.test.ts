import fc from 'fast-check';
import { PERIOD_DAYS } from '@cellport/shared/schemas/catalog';
import { purchasePrice } from '@cellport/shared/schemas/pricing';
import type { DiscountStep, VolumeDiscounts } from '@cellport/shared/schemas/tariff-offers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, seedTestCatalog, usdtBalance } from '../../../test/fixtures.js';

// Issue 27, item 8: a tariff's paid trial (once per customer) and volume discounts, set in the console and shown
// before paying; item 2: the quote, the ledger debit, the payment line, the invoice and a card charge are one amount
// in whole cents, with the discounts and the trial too.
let t: TestApp;
let admin: Signed;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PAYMENTS_PER_MINUTE: '10000' });
  cat = await seedTestCatalog(t);
  admin = await signedIn(t);
}, 120_000);
afterAll(async () => { await expectLedgerMatchesBalances(t.ctx.db); await t.close(); });

const order = (tariffId: string, over: Record<string, unknown> = {}) => ({
  tariff_id: tariffId, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1, ...over,
});
const post = (cookie: string, url: string, body: unknown) => t.app.inject({ method: 'POST', url, ...json(cookie, body) });
const patchTariff = (id: string, body: unknown) => call(t, admin.cookie, 'PATCH', `/api/v1/admin/tariffs/${id}`, body);
/** Releases every port and frees its modem, so each run of a property has the whole stock again. */
async function restock() {
  await t.ctx.db.updateTable('ports').set({ status: 'released' }).execute();
  await t.ctx.db.updateTable('modems').set({ used_slots: 0 }).execute();
}

async function moneyOf(paymentId: string) {
  const debit = await t.ctx.db.selectFrom('ledger_entries').select('amount').where('reference', '=', `payment:${paymentId}`).executeTakeFirst();
  const invoice = await t.ctx.db.selectFrom('invoices').select(['amount', 'lines']).where('payment_id', '=', paymentId).executeTakeFirstOrThrow();
  const lines = (typeof invoice.lines === 'string' ? JSON.parse(invoice.lines) : invoice.lines) as Array<{ description: string; amount: string; quantity: number }>;
  const payment = await t.ctx.db.selectFrom('payments').select(['amount', 'discount']).where('id', '=', paymentId).executeTakeFirstOrThrow();
  return { ledger: -BigInt(debit?.amount ?? 0n), invoice: BigInt(invoice.amount), lines, payment: BigInt(payment.amount), discount: BigInt(payment.discount) };
}

describe('the console sets a trial and volume discounts on a tariff', () => {
  it('saves them, shows them to customers, audits the change, and refuses sub-cent prices and overlapping steps', async () => {
    const id = cat.dedicatedWeek.id;
    const saved = await patchTariff(id, {
      trial: { hours: 2, price: '1500000' },
      discounts: { quantity: [{ min: 10, percent: 10 }, { min: 5, percent: 5 }], days: [{ min: 30, percent: 3 }] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().tariff).toMatchObject({
      trial: { hours: 2, price: '1500000' },
      discounts: { quantity: [{ min: 5, percent: 5 }, { min: 10, percent: 10 }], days: [{ min: 30, percent: 3 }] },
    });
    const shown = (await call(t, null, 'GET', '/api/v1/tariffs')).json().find((x: { _id: string }) => x._id === id);
    expect(shown).toMatchObject({ trial: { hours: 2, price: '1500000' }, discounts: { quantity: [{ min: 5, percent: 5 }, { min: 10, percent: 10 }] } });
    const [audit] = await auditOf(t, 'tariff.update');
    expect(audit).toMatchObject({ after: { trial_hours: 2, trial_price: '1500000' } });

    for (const bad of [
      { price: '8995000' }, // $8.995: not whole cents
      { trial: { hours: 1, price: '995000' } },
      { trial: { hours: 0, price: '1000000' } },
      { discounts: { quantity: [{ min: 5, percent: 5 }, { min: 5, percent: 8 }], days: [] } },
      { discounts: { quantity: [{ min: 5, percent: 10 }, { min: 10, percent: 5 }], days: [] } },
      { discounts: { quantity: [{ min: 5, percent: 91 }], days: [] } },
    ]) {
      const res = await patchTariff(id, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const res = await call(t, admin.cookie, 'POST', '/api/v1/admin/tariffs', {
      names: { en: 'X', ru: 'X', cn: 'X' }, price: '1234567', period: 'day', countryId: cat.usId, isShared: false,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('A price is whole cents');
    // null removes the trial; the steps stay as they were.
    const removed = (await patchTariff(id, { trial: null })).json().tariff;
    expect(removed).toMatchObject({ trial: null, discounts: { quantity: [{ min: 5, percent: 5 }, { min: 10, percent: 10 }] } });
  });
});

describe('a purchase with volume discounts charges one amount in whole cents', () => {
  it('quote == ledger debit == payment line == invoice, lines adding up, over prices, periods, quantities and coupons', async () => {
    const customer = await createCustomer(t, 5_000_000);
    const id = cat.dedicatedMonth.id;
    await t.ctx.db.insertInto('coupons').values({ name: 'TENOFF', type: 'percent', percent: 10, max_uses: null, max_uses_per_user: null,
      amount: null, valid_from: null, valid_until: null, tariff_id: null, country_id: null }).execute();
    const prices = fc.integer({ min: 1, max: 20_000 }).map((c) => BigInt(c) * 10_000n);
    const steps: fc.Arbitrary<VolumeDiscounts> = fc.record({
      quantity: fc.constantFrom<DiscountStep[]>([], [{ min: 2, percent: 5 }], [{ min: 2, percent: 7 }, { min: 3, percent: 13 }]),
      days: fc.constantFrom<DiscountStep[]>([], [{ min: 7, percent: 3 }], [{ min: 30, percent: 11 }]),
    });
    const periods = fc.constantFrom('day' as const, 'week' as const, 'month' as const);
    await fc.assert(fc.asyncProperty(prices, periods, steps, fc.integer({ min: 1, max: 3 }), fc.boolean(), async (price, period, discounts, q, withCoupon) => {
      await restock();
      await t.ctx.db.updateTable('tariffs').set({ price, period, period_days: PERIOD_DAYS[period], volume_discounts: JSON.stringify(discounts) })
        .where('id', '=', id).execute();
      const body = order(id, { modemCount: q, coupon: withCoupon ? 'tenoff' : null });
      const expected = purchasePrice({ price, quantity: q, days: PERIOD_DAYS[period], discounts, trial: null,
        coupon: withCoupon ? { type: 'percent', percent: 10 } : null });
      const quote = await post(customer.cookie, '/api/v1/payment/quote', body);
      expect(quote.statusCode, quote.body).toBe(200);
      expect(quote.json().data).toMatchObject({
        subtotal: expected.subtotal.toString(), volumePercent: expected.volumePercent, volumeDiscount: expected.volumeDiscount.toString(),
        couponDiscount: expected.couponDiscount.toString(), total: expected.total.toString(),
      });
      const bought = await post(customer.cookie, '/api/v1/payment/balance/buy', body);
      expect(bought.statusCode, bought.body).toBe(200);
      const m = await moneyOf(bought.json().data.payment._id);
      const charged = expected.total;
      expect(charged % 10_000n).toBe(0n);
      expect({ ledger: m.ledger, invoice: m.invoice, payment: m.payment, api: BigInt(bought.json().data.payment.amount) })
        .toEqual({ ledger: charged, invoice: charged, payment: charged, api: charged });
      expect(m.discount).toBe(expected.volumeDiscount + expected.couponDiscount);
      expect(m.lines.reduce((s, l) => s + BigInt(l.amount), 0n)).toBe(charged);
      for (const l of m.lines) expect(BigInt(l.amount) % 10_000n).toBe(0n);
      expect(m.lines.some((l) => l.description === `Volume discount ${expected.volumePercent}%`)).toBe(expected.volumeDiscount > 0n);
    }), { numRuns: 25 });
    await restock();
  }, 300_000);

  it('10 monthly ports at $8.99 with 10+ −10 % and 30 days −5 %: $76.42 quoted, charged, invoiced, and charged by card', async () => {
    const id = cat.dedicatedMonth.id;
    await t.ctx.db.updateTable('tariffs').set({ price: 8_990_000n, period: 'month', period_days: 30, recurring: false,
      volume_discounts: JSON.stringify({ quantity: [{ min: 5, percent: 5 }, { min: 10, percent: 10 }], days: [{ min: 30, percent: 5 }] }) })
      .where('id', '=', id).execute();
    const c = await createCustomer(t, 1_000);
    const body = order(id, { modemCount: 10 });
    const quote = (await post(c.cookie, '/api/v1/payment/quote', body)).json().data;
    expect(quote).toMatchObject({ subtotal: '89900000', volumePercent: 15, volumeDiscount: '13480000', couponDiscount: '0', total: '76420000' });
    const bought = await post(c.cookie, '/api/v1/payment/balance/buy', body);
    expect(bought.json().data.payment).toMatchObject({ amount: '76420000', discount: '13480000' });
    expect(await usdtBalance(t, c.id)).toBe(1_000_000_000n - 76_420_000n);
    const invoice = (await call(t, c.cookie, 'GET', '/api/v1/invoices?lng=ru')).json().data[0];
    expect(invoice.lines.map((l: { description: string; amount: string }) => [l.description, l.amount])).toEqual([
      [expect.stringContaining('Мобильный прокси-порт'), '89900000'], ['Скидка за объём 15%', '-13480000'],
    ]);

    // The same order by card: the provider is asked for exactly that many cents.
    await restock();
    const card = await createCustomer(t);
    const intent = await post(card.cookie, '/api/v1/payment/stripe/create-payment-intent', body);
    expect(intent.statusCode, intent.body).toBe(200);
    const row = await t.ctx.db.selectFrom('payment_orders').select(['amount', 'provider_amount']).where('user_id', '=', card.id).executeTakeFirstOrThrow();
    expect({ amount: row.amount, cents: row.provider_amount }).toEqual({ amount: 76_420_000n, cents: 7_642n });
    await restock();
  });
});

describe('a paid trial', () => {
  it('one port for its hours at its price, not auto-renewed, invoiced as a trial; once per customer, one port, no coupon', async () => {
    const id = cat.dedicatedWeek.id;
    await t.ctx.db.updateTable('tariffs').set({ trial_hours: 1, trial_price: 990_000n, volume_discounts: JSON.stringify({ quantity: [], days: [{ min: 1, percent: 50 }] }) })
      .where('id', '=', id).execute();
    const c = await createCustomer(t, 20);
    const quote = (await post(c.cookie, '/api/v1/payment/quote', order(id, { trial: true }))).json().data;
    expect(quote).toMatchObject({ subtotal: '990000', volumeDiscount: '0', total: '990000', trial: true, trialAvailable: true });

    expect((await post(c.cookie, '/api/v1/payment/balance/buy', order(id, { trial: true, modemCount: 2 }))).json().code).toBe('TRIAL_ONE_PORT');
    expect((await post(c.cookie, '/api/v1/payment/balance/buy', order(id, { trial: true, coupon: 'tenoff' }))).json().code).toBe('TRIAL_ONE_PORT');
    expect((await post(c.cookie, '/api/v1/payment/balance/buy', order(cat.dedicatedMonth.id, { trial: true }))).json().code).toBe('TRIAL_NOT_OFFERED');

    const before = Date.now();
    const bought = await post(c.cookie, '/api/v1/payment/balance/buy', order(id, { trial: true }));
    expect(bought.statusCode, bought.body).toBe(200);
    const paymentId = bought.json().data.payment._id as string;
    const m = await moneyOf(paymentId);
    expect({ ledger: m.ledger, invoice: m.invoice, payment: m.payment }).toEqual({ ledger: 990_000n, invoice: 990_000n, payment: 990_000n });
    expect(m.lines).toEqual([expect.objectContaining({ description: expect.stringMatching(/^Trial of a mobile proxy port, .*, 1 h$/), amount: '990000' })]);
    const port = await t.ctx.db.selectFrom('ports').select(['id', 'expires_at', 'auto_renew']).where('user_id', '=', c.id).executeTakeFirstOrThrow();
    expect(port.auto_renew).toBe(false);
    expect(port.expires_at.getTime()).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(port.expires_at.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000);
    const jobs = await t.ctx.db.selectFrom('jobs').select('kind').where('key', 'like', `%${port.id}%`).execute();
    expect(jobs.map((j) => j.kind).sort()).toEqual(['port.expire', 'port.release']);

    const again = await post(c.cookie, '/api/v1/payment/balance/buy', order(id, { trial: true }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'TRIAL_USED', error: 'You have already used your trial. Choose a regular period to continue.' });
    expect((await post(c.cookie, '/api/v1/payment/quote', order(id, { trial: true }))).json().code).toBe('TRIAL_USED');
    expect((await post(c.cookie, '/api/v1/payment/quote', order(id))).json().data.trialAvailable).toBe(false);
    expect((await call(t, c.cookie, 'GET', '/api/v1/payment/trial')).json()).toEqual({ used: true });
    expect((await call(t, (await createCustomer(t)).cookie, 'GET', '/api/v1/payment/trial')).json()).toEqual({ used: false });
    // Paying by card for a second trial is refused before any money moves.
    expect((await post(c.cookie, '/api/v1/payment/stripe/create-payment-intent', order(id, { trial: true }))).json().code).toBe('TRIAL_USED');
    expect(await usdtBalance(t, c.id)).toBe(20_000_000n - 990_000n);
  });
});
