import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, onPostgres, type TestApp } from '../../../test/helpers.js';
import { startFakeStripeApi, type FakeStripeApi, type RecordedStripeRequest, type StripeReply } from '../../integrations/stripe/testing/fake-stripe-api.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { CardPayments } from './card-payments.js';
import { CardRefunds, type CardRefundReport } from './card-refunds.js';
import { createCustomer, json, usdtBalance } from '../../../test/fixtures.js';
import { netRevenue } from '../console-overview/overview.repository.js';
import { call, signedIn, type Signed } from '../../../test/console-helpers.js';

// Issue 28, item 1: one card refund is one ledger movement, whichever side reports it first — the console (after
// Stripe answered its refund call) or Stripe's charge.refunded event — under any order and concurrency, on PGlite
// and PostgreSQL; and the server keeps answering after. The real Stripe adapter speaks HTTP to a fake Stripe, which
// delivers the signed event where each test says: before its answer, while the console records, after, many times.
const WEBHOOK_SECRET = 'whsec_refund_once';
const CENT = 10_000n;

let t: TestApp;
let admin: Signed;
let stripe: FakeStripeApi;
let intentSeq = 0;
const since = new Date(Date.now() - 60_000);
/** What the fake Stripe does when asked to refund; set by each test. */
let onRefund: (r: RecordedStripeRequest, refund: StripeReply) => Promise<StripeReply> = async (_r, refund) => refund;
/** Cumulative refunded cents per intent, as Stripe reports it. */
const refundedCents = new Map<string, number>();

function stripeRoute(r: RecordedStripeRequest): StripeReply | undefined | Promise<StripeReply | undefined> {
  switch (`${r.method} ${r.path}`) {
    case 'GET /v1/customers': return { body: { object: 'list', url: '/v1/customers', has_more: false, data: [] } };
    case 'POST /v1/customers': return { body: { id: `cus_${r.form.get('metadata[user_id]')?.slice(0, 8)}`, object: 'customer' } };
    case 'POST /v1/payment_intents': {
      const id = `pi_once${++intentSeq}`;
      return { body: { id, object: 'payment_intent', amount: Number(r.form.get('amount')), client_secret: `${id}_secret_x`, status: 'requires_payment_method' } };
    }
    case 'POST /v1/refunds': {
      const intent = r.form.get('payment_intent')!;
      const amount = Number(r.form.get('amount'));
      refundedCents.set(intent, (refundedCents.get(intent) ?? 0) + amount);
      return onRefund(r, { body: { id: `re_${intent}`, object: 'refund', amount, status: 'succeeded' } });
    }
    default: return undefined;
  }
}

beforeAll(async () => {
  stripe = await startFakeStripeApi(stripeRoute);
  t = await buildTestApp({
    STRIPE_SECRET_KEY: 'sk_test_once', STRIPE_PUBLISHABLE_KEY: 'pk_test_once', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url,
  });
  admin = await signedIn(t);
}, 120_000);
afterAll(async () => {
  await t.close();
  await stripe.close();
});
afterEach(async () => {
  vi.restoreAllMocks();
  onRefund = async (_r, refund) => refund;
  await expectLedgerMatchesBalances(t.ctx.db);
});

function signedWebhook(event: object) {
  const body = JSON.stringify(event);
  const ts = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', WEBHOOK_SECRET).update(`${ts}.${body}`).digest('hex');
  return t.app.inject({
    method: 'POST', url: '/api/v1/payment/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': `t=${ts},v1=${v1}` }, payload: body,
  });
}

/** Net card revenue since the file started, micro-USD (the console overview's figure). */
async function cardRevenue(): Promise<bigint> {
  return (await netRevenue(t.ctx.db, since)).filter((r) => r.provider === 'card').reduce((s, r) => s + BigInt(r.amount), 0n);
}

/** A customer who topped up `cents` by card; `chargeRefunded` delivers Stripe's event with the refunded total so far. */
async function cardTopUp(cents: number) {
  const c = await createCustomer(t);
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: cents }) });
  const intent = res.json().payment_intent.id as string;
  const order = await t.ctx.db.selectFrom('payment_orders').select('id').where('external_id', '=', intent).executeTakeFirstOrThrow();
  const metadata = { orderId: order.id, userId: c.id };
  const paid = await signedWebhook({ id: `evt_pay_${intent}`, object: 'event', type: 'payment_intent.succeeded', data: { object: {
    id: intent, object: 'payment_intent', amount: cents, amount_received: cents, currency: 'usd', customer: null, metadata,
  } } });
  expect(paid.statusCode).toBe(200);
  expect(await usdtBalance(t, c.id)).toBe(BigInt(cents) * CENT);
  const chargeRefunded = async (eventId: string) => {
    const res = await signedWebhook({ id: eventId, object: 'event', type: 'charge.refunded', data: { object: {
      id: `ch_${intent}`, object: 'charge', amount: cents, amount_refunded: refundedCents.get(intent) ?? 0, currency: 'usd',
      payment_intent: intent, customer: null, metadata,
    } } });
    expect(res.statusCode).toBe(200);
  };
  return { customer: c, paymentId: order.id, intent, chargeRefunded };
}

const refund = (paymentId: string, amount: bigint) => call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${paymentId}/refund`, {
  reason: 'customer asked', amount: amount.toString(),
});
const family = (intent: string) => t.ctx.db.selectFrom('ledger_entries').select(['reference', 'amount', 'kind'])
  .where('reference', 'like', `card-refund:${intent}:%`).orderBy('id').execute();

/** $250 topped up, $50 sent back: the customer keeps $200, the family holds one debit, revenue drops by $50. */
async function expectOneRefund(top: Awaited<ReturnType<typeof cardTopUp>>, revenueBefore: bigint) {
  expect(await usdtBalance(t, top.customer.id)).toBe(200_000_000n);
  expect(await family(top.intent)).toEqual([
    { reference: `card-refund:${top.intent}:admin:${top.paymentId}`, amount: -50_000_000n, kind: 'refund_out' },
  ]);
  const rows = await t.ctx.db.selectFrom('payment_refunds').select(['amount', 'method', 'provider_ref']).where('payment_id', '=', top.paymentId).execute();
  expect(rows).toEqual([{ amount: 50_000_000n, method: 'provider', provider_ref: `re_${top.intent}` }]);
  expect(await cardRevenue()).toBe(revenueBefore - 50_000_000n);
  // The server still answers a database-backed request.
  const account = await t.app.inject({ method: 'GET', url: '/api/v1/account', ...json(top.customer.cookie) });
  expect(account.statusCode).toBe(200);
}

/** Resolves when someone waits for a row lock on this database (PostgreSQL: the event queued behind the console). */
async function lockWaiter(): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(t.ctx.db);
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setImmediate(r));
  }
}

describe('a console card refund and its charge.refunded event book one movement', () => {
  it('the event arrives before Stripe answers the console (before the console records)', async () => {
    const top = await cardTopUp(25_000);
    const revenue = await cardRevenue();
    onRefund = async (_r, reply) => {
      await top.chargeRefunded('evt_before');
      return reply;
    };
    const res = await refund(top.paymentId, 50_000_000n);
    expect(res.statusCode).toBe(200);
    expect(res.json().refund).toMatchObject({ method: 'provider', amount: '50000000', providerRef: `re_${top.intent}` });
    await top.chargeRefunded('evt_before'); // a redelivery changes nothing
    await expectOneRefund(top, revenue);
  });

  it('the event arrives while the console records the refund (between Stripe\'s answer and the commit)', async () => {
    const top = await cardTopUp(25_000);
    const revenue = await cardRevenue();
    let delivered: Promise<void> | undefined;
    const handling = new Promise<void>((resolve) => {
      const handle = CardPayments.prototype.handle;
      vi.spyOn(CardPayments.prototype, 'handle').mockImplementation(function (this: CardPayments, event) {
        resolve();
        return handle.call(this, event);
      });
    });
    const book = CardRefunds.prototype.book;
    vi.spyOn(CardRefunds.prototype, 'book').mockImplementation(async function (this: CardRefunds, tx, report: CardRefundReport) {
      const moved = await book.call(this, tx, report);
      if (report.event === null) {
        // The console's transaction is open and holds the payment's lock: the event comes now.
        delivered = top.chargeRefunded('evt_during');
        await handling;
        if (onPostgres) await lockWaiter();
      }
      return moved;
    });
    const res = await refund(top.paymentId, 50_000_000n);
    expect(res.statusCode).toBe(200);
    expect(delivered).toBeDefined();
    await delivered;
    await expectOneRefund(top, revenue);
  });

  it('the event arrives after the console recorded the refund', async () => {
    const top = await cardTopUp(25_000);
    const revenue = await cardRevenue();
    expect((await refund(top.paymentId, 50_000_000n)).statusCode).toBe(200);
    await top.chargeRefunded('evt_after');
    await expectOneRefund(top, revenue);
  });

  it('the event delivered many times at once, before, during and after the console\'s answer', async () => {
    const top = await cardTopUp(25_000);
    const revenue = await cardRevenue();
    const deliveries: Array<Promise<void>> = [];
    const burst = (tag: string) => {
      // Redeliveries of one event and distinct events reporting the same total, all at once.
      for (let i = 0; i < 4; i++) deliveries.push(top.chargeRefunded(`evt_${tag}`), top.chargeRefunded(`evt_${tag}_${i}`));
    };
    onRefund = async (_r, reply) => {
      burst('racing');
      return reply;
    };
    const res = await refund(top.paymentId, 50_000_000n);
    burst('late');
    await Promise.all(deliveries);
    expect(res.statusCode).toBe(200);
    await expectOneRefund(top, revenue);
  });

  it('Stripe refuses: the claim is withdrawn, nothing moves, and the operator can try again', async () => {
    const top = await cardTopUp(25_000);
    onRefund = async (r) => {
      refundedCents.set(top.intent, 0);
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'nope', request_log_url: r.path } } };
    };
    const refused = await refund(top.paymentId, 50_000_000n);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().code).toBe('REFUND_PROVIDER_FAILED');
    expect(await usdtBalance(t, top.customer.id)).toBe(250_000_000n);
    expect(await t.ctx.db.selectFrom('payment_refunds').select('id').where('payment_id', '=', top.paymentId).execute()).toEqual([]);
    onRefund = async (_r, reply) => reply;
    const revenue = await cardRevenue();
    expect((await refund(top.paymentId, 50_000_000n)).statusCode).toBe(200);
    await top.chargeRefunded('evt_retry');
    await expectOneRefund(top, revenue);
  });

  it('a refund made in Stripe\'s dashboard, its event delivered many times at once, is taken once', async () => {
    const top = await cardTopUp(25_000);
    const revenue = await cardRevenue();
    refundedCents.set(top.intent, 5_000);
    await Promise.all([0, 1, 2, 3, 4, 5].map((i) => top.chargeRefunded(i % 2 ? 'evt_dash' : `evt_dash_${i}`)));
    expect(await usdtBalance(t, top.customer.id)).toBe(200_000_000n);
    const taken = await family(top.intent);
    expect(taken).toHaveLength(1);
    expect(taken[0]).toMatchObject({ amount: -50_000_000n, kind: 'card_refund' });
    expect(await cardRevenue()).toBe(revenue - 50_000_000n);
    // The console then refuses to refund it again.
    expect((await refund(top.paymentId, 50_000_000n)).json().code).toBe('REFUND_DONE_BY_PROVIDER');
  });
});

describe('the sandbox card provider, which sends charge.refunded at once (inside its refund call)', () => {
  let s: TestApp;
  let operator: Signed;
  beforeAll(async () => {
    s = await buildTestApp();
    operator = await signedIn(s);
  }, 120_000);
  afterAll(async () => { await s.close(); });

  it('a $50 refund of a $250 top-up answers, leaves $200, and the server keeps answering', async () => {
    const c = await createCustomer(s);
    const created = await s.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: 25_000 }) });
    const secret = created.json().payment_intent.client_secret as string;
    const paid = await s.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(c.cookie, {
      clientSecret: secret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123',
    }) });
    expect(paid.statusCode).toBe(200);
    const payment = await s.ctx.db.selectFrom('payments').select('id').where('user_id', '=', c.id).executeTakeFirstOrThrow();
    const before = (await netRevenue(s.ctx.db, since)).reduce((sum, r) => sum + BigInt(r.amount), 0n);

    const res = await call(s, operator.cookie, 'POST', `/api/v1/admin/payments/${payment.id}/refund`, { reason: 'customer asked', amount: '50000000' });
    expect(res.statusCode).toBe(200);
    expect(res.json().refund).toMatchObject({ method: 'provider', amount: '50000000' });
    expect(await usdtBalance(s, c.id)).toBe(200_000_000n);
    const refunds = await s.ctx.db.selectFrom('ledger_entries').select(['amount', 'kind']).where('user_id', '=', c.id).where('amount', '<', 0n).execute();
    expect(refunds).toEqual([{ amount: -50_000_000n, kind: 'refund_out' }]);
    expect((await netRevenue(s.ctx.db, since)).reduce((sum, r) => sum + BigInt(r.amount), 0n)).toBe(before - 50_000_000n);
    const account = await s.app.inject({ method: 'GET', url: '/api/v1/account', ...json(c.cookie) });
    expect(account.statusCode).toBe(200);
    await expectLedgerMatchesBalances(s.ctx.db);
  });
});
