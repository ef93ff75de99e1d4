// Invoices a bookkeeper can use (issue 27, item 3; docs/decisions/038-invoices-and-receipts.md): a top-up gets a
// receipt in its own series and the purchase it funds gets the one invoice; the seller's legal details come from the
// console, the customer's company, address and VAT number from the Account page, and both are printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectPdf } from './pdf-text.test-support.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { call, signedIn } from '../../../test/console-helpers.js';
import { createCustomer, json, seedTestCatalog } from '../../../test/fixtures.js';

let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '30', MODEM_SIM_SAME_IP_RATE: '0' });
  cat = await seedTestCatalog(t);
});
afterAll(async () => { await t.close(); });

interface Doc {
  _id: string; number: string; document: 'invoice' | 'receipt'; provider: string; amount: string; paymentId: string;
  seller: { name: string; address: string; taxId: string };
  customer: { name: string; company_name: string; address: string; vat_number: string };
}
const documents = async (cookie: string) =>
  ((await t.app.inject({ method: 'GET', url: '/api/v1/invoices', ...json(cookie) })).json() as { data: Doc[] }).data;

/** A card top-up of `cents` through the sandbox card form, as the page does it. */
async function topUpByCard(cookie: string, cents: number) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(cookie, { amount: cents }) });
  expect(res.statusCode, res.body).toBe(200);
  const confirm = await t.app.inject({
    method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm',
    ...json(cookie, { clientSecret: res.json().payment_intent.client_secret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' }),
  });
  expect(confirm.statusCode, confirm.body).toBe(200);
}

const drew = (drawn: Set<string>, text: string) => [...text].filter((ch) => ch !== ' ').every((ch) => drawn.has(ch));

describe('invoices and receipts', () => {
  it('a top-up is a receipt, the balance purchase it funds the one invoice; seller and buyer details printed on both', async () => {
    const admin = await signedIn(t);
    const patched = await call(t, admin.cookie, 'PATCH', '/api/v1/admin/settings', {
      sellerName: 'Cellport Networks OÜ', sellerAddress: 'Narva mnt 5, 10117 Tallinn, Estonia', sellerTaxId: 'EE102030405',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().seller).toEqual({ name: 'Cellport Networks OÜ', address: 'Narva mnt 5, 10117 Tallinn, Estonia', taxId: 'EE102030405' });

    const c = await createCustomer(t, 0, 'en');
    const profile = await t.app.inject({
      method: 'PATCH', url: '/api/v1/me',
      ...json(c.cookie, { name: 'Jane Doe', company_name: 'Acme GmbH', billing_address: 'Hauptstr. 1\n10115 Berlin', vat_number: 'DE123456789' }),
    });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json()).toMatchObject({ billing_address: 'Hauptstr. 1\n10115 Berlin', vat_number: 'DE123456789' });

    await topUpByCard(c.cookie, Number(cat.dedicatedMonth.price) / 10_000);
    const buy = await t.app.inject({
      method: 'POST', url: '/api/v1/payment/balance/buy',
      ...json(c.cookie, { tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1 }),
    });
    expect(buy.statusCode, buy.body).toBe(200);

    const [invoice, receipt] = await documents(c.cookie);
    expect(receipt).toMatchObject({ document: 'receipt', provider: 'card' });
    expect(receipt!.number).toMatch(/^CP-R-\d{4}-\d{6}$/);
    expect(invoice).toMatchObject({ document: 'invoice', provider: 'balance' });
    expect(invoice!.number).toMatch(/^CP-\d{4}-\d{6}$/);
    // The same money: one receipt for it arriving, one invoice for what it bought. Only the invoice is a sale.
    expect(invoice!.amount).toBe(receipt!.amount);
    for (const doc of [invoice!, receipt!]) {
      expect(doc.seller).toEqual({ name: 'Cellport Networks OÜ', address: 'Narva mnt 5, 10117 Tallinn, Estonia', taxId: 'EE102030405' });
      expect(doc.customer).toMatchObject({ company_name: 'Acme GmbH', address: 'Hauptstr. 1\n10115 Berlin', vat_number: 'DE123456789' });
    }

    const pdf = async (id: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/invoices/${id}.pdf`, ...json(c.cookie) });
      expect(res.statusCode).toBe(200);
      return inspectPdf(res.rawPayload).drawn;
    };
    const invoicePdf = await pdf(invoice!._id);
    for (const text of ['Invoice', 'Billed to', 'Cellport Networks OÜ', 'Narva mnt 5, 10117 Tallinn, Estonia', 'Tax number: EE102030405',
      'Acme GmbH', 'Hauptstr. 1', '10115 Berlin', 'VAT number: DE123456789', 'Paid from the account balance', 'acknowledged by receipt']) {
      expect(drew(invoicePdf, text), text).toBe(true);
    }
    const receiptPdf = await pdf(receipt!._id);
    for (const text of ['Receipt', 'Received from', 'Total received', 'This is not an invoice', 'Tax number: EE102030405', 'VAT number: DE123456789']) {
      expect(drew(receiptPdf, text), text).toBe(true);
    }
  });

  it('keeps the seller as at issue: a later change in the console does not rewrite documents already issued', async () => {
    const admin = await signedIn(t);
    await call(t, admin.cookie, 'PATCH', '/api/v1/admin/settings', { sellerName: 'First Name Ltd', sellerAddress: '', sellerTaxId: null });
    const c = await createCustomer(t, 0, 'en');
    await topUpByCard(c.cookie, 1000);
    await call(t, admin.cookie, 'PATCH', '/api/v1/admin/settings', { sellerName: 'Second Name Ltd' });
    await topUpByCard(c.cookie, 1200);
    const [second, first] = await documents(c.cookie);
    expect(first!.seller).toEqual({ name: 'First Name Ltd', address: '', taxId: '' });
    expect(second!.seller.name).toBe('Second Name Ltd');
  });

  it('numbers receipts and invoices in their own gap-free series', async () => {
    const c = await createCustomer(t, 0, 'en');
    const before = await t.ctx.db.selectFrom('invoices').select(['number', 'document']).where('number', 'is not', null).execute();
    const last = (document: string, prefix: RegExp) => Math.max(0, ...before.filter((r) => r.document === document)
      .map((r) => Number(prefix.exec(r.number!)?.[1] ?? 0)));
    const lastReceipt = last('receipt', /^CP-R-\d{4}-(\d{6})$/);
    const lastInvoice = last('invoice', /^CP-\d{4}-(\d{6})$/);
    await topUpByCard(c.cookie, 5000);
    await topUpByCard(c.cookie, 5000);
    const docs = await documents(c.cookie);
    const seq = (n: string) => Number(n.slice(-6));
    expect(docs.map((d) => d.document)).toEqual(['receipt', 'receipt']);
    expect(docs.map((d) => seq(d.number)).sort()).toEqual([lastReceipt + 1, lastReceipt + 2]);
    // No invoice number was taken by the top-ups.
    const invoicesNow = await t.ctx.db.selectFrom('invoices').select('number').where('document', '=', 'invoice').where('number', 'is not', null).execute();
    expect(Math.max(0, ...invoicesNow.map((r) => seq(r.number!)))).toBe(lastInvoice);
  });

  it('the console refuses nonsense and clears a field with null or an empty text', async () => {
    const admin = await signedIn(t);
    expect((await call(t, admin.cookie, 'PATCH', '/api/v1/admin/settings', { sellerName: 'x'.repeat(201) })).statusCode).toBe(400);
    const cleared = await call(t, admin.cookie, 'PATCH', '/api/v1/admin/settings', { sellerName: null, sellerAddress: '', sellerTaxId: '' });
    expect(cleared.json().seller).toEqual({ name: 'Cellport', address: '', taxId: '' });
  });
});
