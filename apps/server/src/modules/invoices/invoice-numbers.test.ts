import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, itOnPostgres, type TestApp } from '../../../test/helpers.js';
import type { Tx } from '../../db/database.js';
import { createCustomer, json, seedTestCatalog } from '../../../test/fixtures.js';
import { invoiceNumber, numberPendingInvoices, receiptNumber } from './invoice-numbers.js';
import { issueInvoice } from './invoices.service.js';

/**
 * A completed payment with its (unnumbered) document, as the payment paths write them: a renewal is invoiced, a
 * top-up gets a receipt in the receipts' own series (decision 038).
 */
async function paidInvoice(t: TestApp, userId: string, issuedAt?: Date, kind: 'renewal' | 'topup' = 'renewal'): Promise<string> {
  const paymentId = randomUUID();
  await t.ctx.db.transaction().execute(async (tx: Tx) => {
    await tx.insertInto('payments').values({
      id: paymentId, user_id: userId, provider: 'card', kind, status: 'completed', amount: 5_000_000n, discount: 0n,
      description: 'Top-up', modem_count: 0, tariff_id: null, coupon: null, coupon_id: null,
    }).execute();
    await issueInvoice(tx, paymentId, [{ description: 'Top-up', quantity: 1, unitAmount: 5_000_000n, amount: 5_000_000n }]);
    if (issuedAt) await tx.updateTable('invoices').set({ issued_at: issuedAt }).where('payment_id', '=', paymentId).execute();
  });
  return paymentId;
}

const numbers = async (t: TestApp) => (await t.ctx.db.selectFrom('invoices').select(['number', 'issued_at'])
  .orderBy('issued_at').orderBy('number').execute());

describe('invoice numbers, given after the payment commits', () => {
  let t: TestApp;
  beforeEach(async () => { t = await buildTestApp({ RATE_LIMIT_PAYMENTS_PER_MINUTE: '10000' }); });
  afterEach(async () => { await t.close(); });

  it('an invoice is written unnumbered with its payment; numbering gives the next numbers of its year, oldest first', async () => {
    const c = await createCustomer(t);
    await t.ctx.db.insertInto('invoice_counters').values({ year: 2025, last: 41 }).execute();
    await paidInvoice(t, c.id, new Date('2025-12-31T23:59:00Z'));
    await paidInvoice(t, c.id, new Date('2026-01-01T00:01:00Z'));
    await paidInvoice(t, c.id, new Date('2025-06-01T00:00:00Z'));
    expect((await numbers(t)).map((r) => r.number)).toEqual([null, null, null]);

    expect(await numberPendingInvoices(t.ctx.db)).toBe(3);
    expect((await numbers(t)).map((r) => r.number)).toEqual([invoiceNumber(2025, 42), invoiceNumber(2025, 43), invoiceNumber(2026, 1)]);
    expect(await numberPendingInvoices(t.ctx.db)).toBe(0);
  });

  it('the numbers are written as the formats say, past six digits too, in both series', async () => {
    const c = await createCustomer(t);
    await t.ctx.db.insertInto('invoice_counters').values({ year: 2026, last: 999_998 }).execute();
    await t.ctx.db.insertInto('receipt_counters').values({ year: 2026, last: 41 }).execute();
    await paidInvoice(t, c.id, new Date('2026-03-01T00:00:00Z'));
    await paidInvoice(t, c.id, new Date('2026-03-01T00:00:01Z'));
    await paidInvoice(t, c.id, new Date('2026-03-01T00:00:02Z'), 'topup');
    expect(await numberPendingInvoices(t.ctx.db)).toBe(3);
    expect((await numbers(t)).map((r) => r.number)).toEqual([invoiceNumber(2026, 999_999), invoiceNumber(2026, 1_000_000), receiptNumber(2026, 42)]);
  });

  it('a rolled-back payment leaves no invoice and no gap', async () => {
    const c = await createCustomer(t);
    await paidInvoice(t, c.id);
    await expect(t.ctx.db.transaction().execute(async (tx) => {
      const paymentId = randomUUID();
      await tx.insertInto('payments').values({
        id: paymentId, user_id: c.id, provider: 'card', kind: 'topup', status: 'completed', amount: 1n, discount: 0n,
        description: 'Top-up', modem_count: 0, tariff_id: null, coupon: null, coupon_id: null,
      }).execute();
      await issueInvoice(tx, paymentId, [{ description: 'Top-up', quantity: 1, unitAmount: 1n, amount: 1n }]);
      throw new Error('the payment fails after its invoice');
    })).rejects.toThrow('fails');
    await paidInvoice(t, c.id);
    await numberPendingInvoices(t.ctx.db);
    const year = new Date().getUTCFullYear();
    expect((await numbers(t)).map((r) => r.number)).toEqual([invoiceNumber(year, 1), invoiceNumber(year, 2)]);
  });

  it('the invoice list and the job runner never leave one unnumbered (a crash between commit and numbering)', async () => {
    const c = await createCustomer(t);
    await paidInvoice(t, c.id);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/invoices', ...json(c.cookie) })).json().data;
    expect(listed).toHaveLength(1);
    expect(listed[0].number).toMatch(/^CP-\d{4}-000001$/);
    await paidInvoice(t, c.id);
    await t.app.jobs.runDueJobs(new Date());
    expect((await numbers(t)).every((r) => r.number)).toBe(true);
  });

  itOnPostgres('10 purchases and 30 top-ups at once, then 3 numberers at once: invoices 1…10 and receipts 1…30, no gap, none twice', async () => {
    const cat = await seedTestCatalog(t);
    const buyers = await Promise.all(Array.from({ length: 10 }, () => createCustomer(t, 100)));
    const [purchases] = await Promise.all([
      Promise.all(buyers.map((b) => t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(b.cookie, {
        tariff_id: cat.dedicatedWeek.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
      }) }))),
      Promise.all(Array.from({ length: 30 }, (_, i) => paidInvoice(t, buyers[i % 10]!.id, undefined, 'topup'))),
    ]);
    expect(purchases.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    await Promise.all([numberPendingInvoices(t.ctx.db), numberPendingInvoices(t.ctx.db), t.ctx.invoiceNumbering.settle()]);
    const year = new Date().getUTCFullYear();
    const got = (await numbers(t)).map((r) => r.number!).sort();
    expect(got).toEqual([
      ...Array.from({ length: 10 }, (_, i) => invoiceNumber(year, i + 1)),
      ...Array.from({ length: 30 }, (_, i) => receiptNumber(year, i + 1)),
    ].sort());
    const counter = await t.ctx.db.selectFrom('invoice_counters').select('last').where('year', '=', year).executeTakeFirstOrThrow();
    expect(counter.last).toBe(10);
    const receipts = await t.ctx.db.selectFrom('receipt_counters').select('last').where('year', '=', year).executeTakeFirstOrThrow();
    expect(receipts.last).toBe(30);
  });
});
