import fc from 'fast-check';
import { PERIOD_DAYS, renewalPrice } from '@cellport/shared/schemas/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { CatalogRepository, CatalogService } from '../catalog/index.js';
import { CouponsRepository, CouponsService } from '../coupons/index.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { OrderPricing } from '../payments/order-pricing.js';
import { OrdersRepository } from '../payments/orders.repository.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';

// Issue 27, item 2: a renewal for custom days charged $3.857143 while its quote and invoice said $3.85. Every amount a
// customer is charged is whole cents, computed once: the quote (the server's OrderPricing, and the shared
// renewalPrice the web shows), the ledger debit, the invoice and the payment line are one amount.
let t: TestApp;
let customer: Customer;
let portId: string;
let tariffId: string;
let pricing: OrderPricing;

beforeAll(async () => {
  t = await buildTestApp();
  const catalog = await seedTestCatalog(t);
  tariffId = catalog.dedicatedWeek.id;
  customer = await createCustomer(t, 10_000_000);
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(customer.cookie, {
    tariff_id: tariffId, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  portId = bought.json().data.modems[0]._id;
  pricing = new OrderPricing(new OrdersRepository(t.ctx.db), new CatalogService(new CatalogRepository(t.ctx.db)), new CouponsService(new CouponsRepository(t.ctx.db)));
}, 120_000);
afterAll(async () => { await t.close(); });

const periods = fc.constantFrom('day' as const, 'week' as const, 'month' as const);
/** Tariff prices in micro-USD from $0.01 to $999.99, some with sub-cent digits an operator could have typed. */
const prices = fc.oneof(fc.integer({ min: 1, max: 99_999 }).map((c) => BigInt(c) * 10_000n), fc.bigInt({ min: 1n, max: 999_999_999n }));
const terms = fc.oneof(
  fc.integer({ min: 1, max: 365 }).map((days) => ({ days })),
  fc.integer({ min: 1, max: 24 }).map((n) => ({ periods: n })),
);

describe('a renewal charges one amount in whole cents', () => {
  it('quote == ledger debit == invoice == payment line, each a whole cent, over periods, prices and day counts', async () => {
    await fc.assert(fc.asyncProperty(periods, prices, terms, async (period, price, term) => {
      await t.ctx.db.updateTable('tariffs').set({ period, period_days: PERIOD_DAYS[period], price }).where('id', '=', tariffId).execute();
      const shown = renewalPrice(price, PERIOD_DAYS[period], term);
      const quote = await pricing.price(customer.id, { basket: { [portId]: term } }, null, 'en');

      const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/renew', ...json(customer.cookie, { basket: { [portId]: term } }) });
      expect(res.statusCode, res.body).toBe(200);
      const paymentId = res.json().data.payment._id as string;
      const charged = BigInt(res.json().data.payment.amount as string);
      // Nothing charged (a sub-cent price of a tiny term rounds to $0.00) books no ledger entry.
      const debit = await t.ctx.db.selectFrom('ledger_entries').select('amount').where('reference', '=', `payment:${paymentId}`).executeTakeFirst();
      const invoice = await t.ctx.db.selectFrom('invoices').select(['amount', 'lines']).where('payment_id', '=', paymentId).executeTakeFirstOrThrow();
      const lines = (typeof invoice.lines === 'string' ? JSON.parse(invoice.lines) : invoice.lines) as Array<{ amount: string; unitAmount: string }>;

      expect(charged % 10_000n).toBe(0n);
      expect({ quote: quote.amount, web: shown, ledger: -BigInt(debit?.amount ?? 0n), invoice: BigInt(invoice.amount), line: BigInt(lines[0]!.amount) })
        .toEqual({ quote: charged, web: charged, ledger: charged, invoice: charged, line: charged });
      expect(lines).toHaveLength(1);
    }), { numRuns: 40 });
    await expectLedgerMatchesBalances(t.ctx.db);
  }, 300_000);

  it('3 days of a $8.99 weekly port: quoted, charged and invoiced $3.85 (the issue\'s example)', async () => {
    await t.ctx.db.updateTable('tariffs').set({ period: 'week', period_days: 7, price: 8_990_000n }).where('id', '=', tariffId).execute();
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/renew', ...json(customer.cookie, { basket: { [portId]: { days: 3 } } }) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.payment.amount).toBe('3850000');
  });

  it('0 days is refused with a clear error and charges nothing', async () => {
    const before = await t.ctx.db.selectFrom('balances').select('amount').where('user_id', '=', customer.id).executeTakeFirstOrThrow();
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/renew', ...json(customer.cookie, { basket: { [portId]: { days: 0 } } }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', error: 'Choose either a number of periods (1-24) or of days (1-365) for each port' });
    const after = await t.ctx.db.selectFrom('balances').select('amount').where('user_id', '=', customer.id).executeTakeFirstOrThrow();
    expect(after.amount).toBe(before.amount);
  });
});

describe('the ledger refuses a charge that is not whole cents (migration 2026_12_10_0600)', () => {
  const entry = (kind: string, amount: bigint) => t.ctx.db.insertInto('ledger_entries').values({
    user_id: customer.id, coin: 'usdt', amount, kind, reference: `test-cents:${kind}:${amount}:${Math.random()}`, payment_id: null,
  }).execute();

  it('a purchase or renewal debit of sub-cents is refused; a USDT deposit keeps every micro-unit it brought', async () => {
    for (const kind of ['purchase', 'renewal', 'auto-renewal']) {
      await expect(entry(kind, -3_857_143n)).rejects.toThrow(/ledger_charges_whole_cents/);
    }
    await expect(entry('crypto_deposit', 10_123_456n)).resolves.toBeDefined();
    await t.ctx.db.deleteFrom('ledger_entries').where('reference', 'like', 'test-cents:%').execute();
  });
});
