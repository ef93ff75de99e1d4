import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripeApi, type FakeStripeApi, type RecordedStripeRequest } from '../../integrations/stripe/testing/fake-stripe-api.js';
import { FakeStripeSubscriptions } from '../../integrations/stripe/testing/fake-stripe-subscriptions.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { buildCountingApp, type CountingApp } from '../notifications/test-support.js';
import { createCustomer, json, seedTestCatalog, usdtBalance, type Customer } from '../../../test/fixtures.js';

// Issue 27 item 1 with the REAL card adapter (Stripe's official SDK) against a fake Stripe on 127.0.0.1: the
// subscription API (create, retrieve, update, cancel) and signed webhooks checked by the SDK. Every event makes the
// server read the subscription from Stripe, so what the customer sees is Stripe's state, whatever order events come in.
const WEBHOOK_SECRET = 'whsec_subscriptions_test';
let t: CountingApp;
let stripe: FakeStripeApi;
const fake = new FakeStripeSubscriptions(WEBHOOK_SECRET);
let catalog: Awaited<ReturnType<typeof seedTestCatalog>>;

function route(r: RecordedStripeRequest) {
  switch (`${r.method} ${r.path}`) {
    case 'GET /v1/customers': return { body: { object: 'list', url: '/v1/customers', has_more: false, data: [] } };
    case 'POST /v1/customers': return { body: { id: `cus_${r.form.get('metadata[user_id]')?.slice(0, 8)}`, object: 'customer' } };
  }
  return fake.route(r);
}

beforeAll(async () => {
  stripe = await startFakeStripeApi(route);
  t = await buildCountingApp({
    STRIPE_SECRET_KEY: 'sk_test_subscriptions', STRIPE_PUBLISHABLE_KEY: 'pk_test_subscriptions', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url,
  });
  catalog = await seedTestCatalog(t);
}, 120_000);
afterAll(async () => {
  await t.close();
  await stripe.close();
});
afterEach(async () => { await expectLedgerMatchesBalances(t.ctx.db); });

const deliver = (d: { payload: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/webhook', headers: d.headers, payload: d.payload });
const post = (c: Customer, url: string, body?: unknown) => t.app.inject({ method: 'POST', url, ...json(c.cookie, body ?? {}) });
const list = async (c: Customer) => (await t.app.inject({ method: 'GET', url: '/api/v1/subscriptions', ...json(c.cookie) })).json().data;
async function mails(c: Customer) {
  await t.settled();
  const { email } = await t.ctx.db.selectFrom('users').select('email').where('id', '=', c.id).executeTakeFirstOrThrow();
  return t.ctx.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to_email', '=', email).orderBy('created_at').execute();
}

/** Subscribes through Stripe: the subscription is created, paid in the browser, and Stripe's invoice.paid arrives. */
async function subscribed(coupon?: string): Promise<{ c: Customer; id: string; cents: number }> {
  const c = await createCustomer(t);
  const res = await post(c, '/api/v1/payment/stripe/create-subscription', {
    tariff_id: catalog.dedicatedMonth.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1, ...(coupon ? { coupon } : {}),
  });
  expect(res.json()).toMatchObject({ error: null, clientSecret: expect.stringMatching(/^pi_sub_fake\d+_secret_first$/) });
  const id = /^pi_(sub_fake\d+)_secret/.exec(res.json().clientSecret)![1]!;
  const cents = Number(catalog.dedicatedMonth.price / 10_000n);
  fake.pay(id);
  const first = fake.invoice(id, `in_${id}_1`, fake.invoiceAmount(id, true), 'subscription_create', true);
  expect((await deliver(fake.event(`evt_${id}_paid`, 'invoice.paid', first))).statusCode).toBe(200);
  return { c, id, cents };
}
const createRequest = (id: string) => stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions' && fake.subs.get(id)?.customer === r.form.get('customer'))!;

describe('card subscriptions on Stripe (real adapter, fake Stripe, signed webhooks)', () => {
  it('asks Stripe for a subscription by days, then shows Stripe\'s state with the card Stripe saved', async () => {
    const { c, id, cents } = await subscribed();
    const create = createRequest(id);
    expect(create.form.get('items[0][price_data][unit_amount]')).toBe(String(cents));
    expect(create.form.has('discounts[0][coupon]')).toBe(false);
    expect(create.form.get('items[0][price_data][recurring][interval]')).toBe('day');
    expect(create.form.get('items[0][price_data][recurring][interval_count]')).toBe('30');
    const retrieve = stripe.requests.find((r) => r.method === 'GET' && r.path === `/v1/subscriptions/${id}`)!;
    expect([...retrieve.query.values()]).toEqual(expect.arrayContaining(['default_payment_method', 'latest_invoice']));
    const [sub] = await list(c);
    expect(sub).toMatchObject({
      id, status: 'active', cancelAtPeriodEnd: false, card: { brand: 'visa', last4: '4242' },
      currentPeriodEnd: new Date(fake.subs.get(id)!.current_period_end! * 1000).toISOString(),
    });
    expect(sub.ports).toHaveLength(1);
  });

  it('a first-order coupon is a Stripe coupon for the first invoice only: the price and every renewal are the full price', async () => {
    await t.ctx.db.insertInto('coupons').values({ name: 'STRIPEFIRST5', type: 'fixed', amount: 5_000_000n, percent: null, max_uses: null,
      max_uses_per_user: null, valid_from: null, valid_until: null, tariff_id: null, country_id: null }).execute();
    const { c, id, cents } = await subscribed('stripefirst5');
    const create = createRequest(id);
    expect(create.form.get('items[0][price_data][unit_amount]')).toBe(String(cents));
    const couponId = create.form.get('discounts[0][coupon]')!;
    const couponRequest = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/coupons' && fake.coupons.get(couponId)?.amount_off === Number(r.form.get('amount_off')))!;
    expect(Object.fromEntries(couponRequest.form)).toMatchObject({ amount_off: '500', currency: 'usd', duration: 'once', max_redemptions: '1' });
    expect(couponRequest.headers['idempotency-key']).toMatch(/:first-discount$/);
    const cardCredits = async () => (await t.ctx.db.selectFrom('ledger_entries').select('amount').where('user_id', '=', c.id).where('kind', '=', 'card')
      .orderBy('created_at').execute()).map((e) => Number(BigInt(e.amount) / 10_000n));
    expect(await cardCredits()).toEqual([cents - 500]);
    expect((await list(c))[0]).toMatchObject({ amount: String(BigInt(cents) * 10_000n) });

    // Stripe's renewal invoice charges the price; it renews the port and leaves the balance as it was.
    const port = await t.ctx.db.selectFrom('ports').select('expires_at').where('user_id', '=', c.id).executeTakeFirstOrThrow();
    const renewal = fake.invoice(id, `in_${id}_2`, fake.invoiceAmount(id, false), 'subscription_cycle', true);
    expect((await deliver(fake.event(`evt_${id}_renewed`, 'invoice.paid', renewal))).statusCode).toBe(200);
    expect(await cardCredits()).toEqual([cents - 500, cents]);
    const renewed = await t.ctx.db.selectFrom('ports').select('expires_at').where('user_id', '=', c.id).executeTakeFirstOrThrow();
    expect(renewed.expires_at.getTime()).toBe(port.expires_at.getTime() + 30 * 86_400_000);
    expect(await usdtBalance(t, c.id)).toBe(0n);
  });

  it('cancel and resume set cancel_at_period_end on Stripe; a late webhook with the old payload changes nothing', async () => {
    const { c, id } = await subscribed();
    const stale = fake.object(id, []);
    const canceled = await post(c, `/api/v1/subscriptions/${id}/cancel`);
    expect(canceled.json().data).toMatchObject({ cancelAtPeriodEnd: true, nextChargeAt: null });
    const update = stripe.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${id}`).at(-1)!;
    expect(update.form.get('cancel_at_period_end')).toBe('true');
    expect(fake.subs.get(id)!.cancel_at_period_end).toBe(true);
    // Stripe's customer.subscription.updated from BEFORE the cancel arrives late: the server reads Stripe's state.
    expect((await deliver(fake.event(`evt_${id}_stale`, 'customer.subscription.updated', stale))).statusCode).toBe(200);
    expect((await list(c))[0]).toMatchObject({ cancelAtPeriodEnd: true });

    await post(c, `/api/v1/subscriptions/${id}/resume`);
    expect(fake.subs.get(id)!.cancel_at_period_end).toBe(false);
    expect((await list(c))[0]).toMatchObject({ cancelAtPeriodEnd: false, status: 'active' });
  });

  it('a failed renewal (invoice.payment_failed) shows past_due with Stripe\'s next retry and e-mails once; deleted ends it', async () => {
    const { c, id, cents } = await subscribed();
    const balance = await usdtBalance(t, c.id);
    const retry = Math.floor(Date.now() / 1000) + 3 * 86_400;
    fake.failCharge(id, retry);
    const failed = fake.event(`evt_${id}_failed`, 'invoice.payment_failed', fake.invoice(id, `in_${id}_2`, cents, 'subscription_cycle', false));
    expect((await deliver(failed)).statusCode).toBe(200);
    expect((await deliver(failed)).statusCode).toBe(200); // Stripe redelivers
    expect((await list(c))[0]).toMatchObject({ status: 'past_due', nextChargeAt: new Date(retry * 1000).toISOString() });
    expect(await usdtBalance(t, c.id)).toBe(balance);
    const failedMails = (await mails(c)).filter((m) => m.subject === 'Your card payment did not go through');
    expect(failedMails).toHaveLength(1);
    expect(failedMails[0]!.text).toContain(`The $${(cents / 100).toFixed(2)} charge to your card Visa •••• 4242`);

    // The customer cancels a past_due subscription: it ends now (DELETE), so the card is not tried again.
    const ended = await post(c, `/api/v1/subscriptions/${id}/cancel`);
    expect(ended.json().data).toMatchObject({ status: 'canceled', nextChargeAt: null });
    expect(stripe.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${id}`)).toBe(true);
    expect((await deliver(fake.event(`evt_${id}_deleted`, 'customer.subscription.deleted', fake.object(id, [])))).statusCode).toBe(200);
    expect((await mails(c)).filter((m) => m.subject === 'Your card subscription has ended')).toHaveLength(1);
  });

  it('refuses a webhook with a wrong signature and changes nothing', async () => {
    const { c, id } = await subscribed();
    fake.subs.get(id)!.status = 'canceled';
    const d = fake.event(`evt_${id}_forged`, 'customer.subscription.deleted', fake.object(id, []));
    const res = await deliver({ payload: d.payload, headers: { ...d.headers, 'stripe-signature': fake.sign(d.payload, 'whsec_attacker') } });
    expect(res.statusCode).toBe(400);
    expect((await list(c))[0]).toMatchObject({ status: 'active' });
    fake.subs.get(id)!.status = 'active';
  });

  it('the console ends a subscription on Stripe', async () => {
    const { c, id } = await subscribed();
    const { signedIn } = await import('../../../test/console-helpers.js');
    const admin = await signedIn(t, 'admin');
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/admin/subscriptions/${id}/cancel`, ...json(admin.cookie, { reason: 'chargeback risk', when: 'period_end' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, email: expect.stringContaining('@') });
    expect(fake.subs.get(id)!.cancel_at_period_end).toBe(true);
    expect((await list(c))[0]).toMatchObject({ cancelAtPeriodEnd: true });
  });
});
