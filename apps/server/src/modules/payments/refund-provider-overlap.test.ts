import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer } from '../../../test/fake-http.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { startFakeStripeApi, type FakeStripeApi, type RecordedStripeRequest } from '../../integrations/stripe/testing/fake-stripe-api.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, usdtBalance } from '../../../test/fixtures.js';
import { call, signedIn, type Signed } from '../../../test/console-helpers.js';

// A refund made in the console and the provider's own notice of the same refund (PayPal Refunded IPN, Stripe
// charge.refunded) must take the money back once, whichever arrives first. Real adapters against fake servers.
const WEBHOOK_SECRET = 'whsec_overlap_secret';
const RECEIVER = 'merchant@cellport.example';

let t: TestApp;
let admin: Signed;
let paypalVerify: FakeHttpServer;
let stripe: FakeStripeApi;
let intentSeq = 0;
let warn: ReturnType<typeof vi.spyOn>;

function stripeRoute(r: RecordedStripeRequest) {
  switch (`${r.method} ${r.path}`) {
    case 'GET /v1/customers': return { body: { object: 'list', url: '/v1/customers', has_more: false, data: [] } };
    case 'POST /v1/customers': return { body: { id: `cus_${r.form.get('metadata[user_id]')?.slice(0, 8)}`, object: 'customer' } };
    case 'POST /v1/payment_intents': {
      const id = `pi_overlap${++intentSeq}`;
      return { body: { id, object: 'payment_intent', amount: Number(r.form.get('amount')), client_secret: `${id}_secret_x`, status: 'requires_payment_method' } };
    }
    case 'POST /v1/refunds': return { body: { id: `re_${r.form.get('payment_intent')}`, object: 'refund', amount: Number(r.form.get('amount')), status: 'succeeded' } };
    default: return undefined;
  }
}

beforeAll(async () => {
  paypalVerify = await startFakeHttpServer(() => ({ body: 'VERIFIED' }));
  stripe = await startFakeStripeApi(stripeRoute);
  t = await buildTestApp({
    STRIPE_SECRET_KEY: 'sk_test_overlap', STRIPE_PUBLISHABLE_KEY: 'pk_test_overlap', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url,
    PAYPAL_MODE: 'sandbox', PAYPAL_RECEIVER_EMAIL: RECEIVER, PAYPAL_IPN_URL: `${paypalVerify.url}/cgi-bin/webscr`,
  });
  admin = await signedIn(t);
}, 120_000);
afterAll(async () => {
  await t.close();
  await Promise.all([paypalVerify.close(), stripe.close()]);
});
beforeEach(() => { warn = vi.spyOn(t.ctx.log, 'warn'); });
afterEach(async () => {
  warn.mockRestore();
  await expectLedgerMatchesBalances(t.ctx.db);
});
const refund = (paymentId: string, body: object = { reason: 'customer asked' }) => call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${paymentId}/refund`, body);
const familyEntries = (prefix: string) => t.ctx.db.selectFrom('ledger_entries').select(['reference', 'amount'])
  .where('reference', 'like', `${prefix}%`).orderBy('id').execute();

describe('PayPal: console refund and Refunded IPN', () => {
  const ipn = (fields: Record<string, string>) => t.app.inject({
    method: 'POST', url: '/api/v1/payment/paypal/ipn', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
  });
  const base = (custom: string, txn: string, gross: string) => ({
    txn_type: 'web_accept', txn_id: txn, mc_gross: gross, mc_currency: 'USD', receiver_email: RECEIVER, business: RECEIVER, custom,
  });
  async function paidTopUp(dollars: string, txn: string) {
    const c = await createCustomer(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/paypal/pending', ...json(c.cookie, { amount: dollars }) });
    const p = res.json().data as { _id: string; client_secret: string };
    expect((await ipn({ ...base(p.client_secret, txn, `${dollars}.00`), payment_status: 'Completed' })).statusCode).toBe(200);
    expect(await usdtBalance(t, c.id)).toBe(BigInt(dollars) * 1_000_000n);
    return { customer: c, paymentId: p._id, secret: p.client_secret };
  }
  const refunded = (secret: string, txn: string, parent: string, gross: string) => ({ ...base(secret, txn, gross), payment_status: 'Refunded', parent_txn_id: parent });

  it('console refund first: the IPN of the same refund takes nothing more, is logged, and a redelivery too', async () => {
    const { customer, paymentId, secret } = await paidTopUp('25', 'PP-PAY-1');
    const res = await refund(paymentId);
    expect(res.statusCode).toBe(200);
    expect(res.json().refund).toMatchObject({ method: 'manual', amount: '25000000' });
    expect(await usdtBalance(t, customer.id)).toBe(0n);

    for (let i = 0; i < 2; i++) expect((await ipn(refunded(secret, 'PP-REF-1', 'PP-PAY-1', '-25.00'))).statusCode).toBe(200);
    expect(await usdtBalance(t, customer.id)).toBe(0n);
    expect(await familyEntries(`paypal-refund:${paymentId}:`)).toEqual([
      { reference: `paypal-refund:${paymentId}:admin`, amount: -25_000_000n },
    ]);
    expect(warn.mock.calls.filter((c) => String(c[1]).includes('already refunded from the console'))).toHaveLength(2);
  });

  it('IPN first: the console refund is refused with REFUND_DONE_BY_PROVIDER and changes nothing', async () => {
    const { customer, paymentId, secret } = await paidTopUp('25', 'PP-PAY-2');
    await ipn(refunded(secret, 'PP-REF-2', 'PP-PAY-2', '-10.00'));
    expect(await usdtBalance(t, customer.id)).toBe(15_000_000n);

    const res = await refund(paymentId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('REFUND_DONE_BY_PROVIDER');
    expect(await usdtBalance(t, customer.id)).toBe(15_000_000n);
    expect(await t.ctx.db.selectFrom('payment_refunds').select('id').where('payment_id', '=', paymentId).execute()).toEqual([]);
    expect(await familyEntries(`paypal-refund:${paymentId}:`)).toEqual([{ reference: `paypal-refund:${paymentId}:ipn:PP-REF-2`, amount: -10_000_000n }]);
  });

  it('the console refund racing its Refunded IPN delivered many times at once: one movement, whichever wins', async () => {
    const { customer, paymentId, secret } = await paidTopUp('25', 'PP-PAY-4');
    const [consoleRefund, ...ipns] = await Promise.all([
      refund(paymentId), ...[0, 1, 2, 3, 4, 5].map(() => ipn(refunded(secret, 'PP-REF-4', 'PP-PAY-4', '-25.00'))),
    ]);
    expect(ipns.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect([200, 409]).toContain(consoleRefund!.statusCode);
    expect(await usdtBalance(t, customer.id)).toBe(0n);
    const taken = await familyEntries(`paypal-refund:${paymentId}:`);
    expect(taken).toHaveLength(1);
    expect(taken[0]!.amount).toBe(-25_000_000n);
  });

  it('a console refund to the balance leaves the money with the customer: a later PayPal refund still takes it', async () => {
    const { customer, paymentId, secret } = await paidTopUp('20', 'PP-PAY-3');
    expect((await refund(paymentId, { reason: 'goodwill', to: 'balance', amount: '5000000' })).statusCode).toBe(200);
    expect(await usdtBalance(t, customer.id)).toBe(25_000_000n);
    await ipn(refunded(secret, 'PP-REF-3', 'PP-PAY-3', '-20.00'));
    expect(await usdtBalance(t, customer.id)).toBe(5_000_000n);
  });
});

describe('Card: console refund and charge.refunded', () => {
  function signedWebhook(event: object) {
    const body = JSON.stringify(event);
    const ts = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', WEBHOOK_SECRET).update(`${ts}.${body}`).digest('hex');
    return t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': `t=${ts},v1=${v1}` }, payload: body });
  }
  async function paidTopUp(cents: number) {
    const c = await createCustomer(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: cents }) });
    const intent = res.json().payment_intent.id as string;
    const order = await t.ctx.db.selectFrom('payment_orders').select('id').where('external_id', '=', intent).executeTakeFirstOrThrow();
    const metadata = { orderId: order.id, userId: c.id };
    await signedWebhook({ id: `evt_pay_${intent}`, object: 'event', type: 'payment_intent.succeeded', data: { object: {
      id: intent, object: 'payment_intent', amount: cents, amount_received: cents, currency: 'usd', customer: null, metadata,
    } } });
    expect(await usdtBalance(t, c.id)).toBe(BigInt(cents) * 10_000n);
    const chargeRefunded = (eventId: string, refundedCents: number) => signedWebhook({ id: eventId, object: 'event', type: 'charge.refunded', data: { object: {
      id: `ch_${intent}`, object: 'charge', amount: cents, amount_refunded: refundedCents, currency: 'usd', payment_intent: intent, customer: null, metadata,
    } } });
    return { customer: c, paymentId: order.id, intent, chargeRefunded };
  }
  const stripeRefunds = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');

  it('console refund first: Stripe refunds once and the charge.refunded webhook takes nothing more', async () => {
    const { customer, paymentId, intent, chargeRefunded } = await paidTopUp(3000);
    const before = stripeRefunds().length;
    const res = await refund(paymentId);
    expect(res.statusCode).toBe(200);
    expect(res.json().refund).toMatchObject({ method: 'provider', amount: '30000000', providerRef: `re_${intent}` });
    expect(stripeRefunds()).toHaveLength(before + 1);
    expect(await usdtBalance(t, customer.id)).toBe(0n);
    expect((await chargeRefunded('evt_ref_a', 3000)).statusCode).toBe(200);
    expect(await usdtBalance(t, customer.id)).toBe(0n);
    expect(await familyEntries(`card-refund:${intent}:`)).toEqual([{ reference: `card-refund:${intent}:admin:${paymentId}`, amount: -30_000_000n }]);
  });

  it('charge.refunded first: the console refund is refused before asking Stripe again', async () => {
    const { customer, paymentId, chargeRefunded } = await paidTopUp(3000);
    await chargeRefunded('evt_ref_b', 1000);
    expect(await usdtBalance(t, customer.id)).toBe(20_000_000n);
    const before = stripeRefunds().length;
    const res = await refund(paymentId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('REFUND_DONE_BY_PROVIDER');
    expect(stripeRefunds()).toHaveLength(before);
    expect(await usdtBalance(t, customer.id)).toBe(20_000_000n);
  });
});
