import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CardProviderError } from './errors.js';
import { StripeCardProvider, SUBSCRIPTION_PRODUCT_ID } from './stripe-card-provider.js';
import { startFakeStripeApi, type FakeStripeApi, type RecordedStripeRequest, type StripeReply } from './testing/fake-stripe-api.js';

const SECRET_KEY = 'sk_test_fake_0123456789';

let productExists = false;

/** Answers like Stripe's API for the calls the adapter makes; ids are fixed so tests can assert them. */
function stripeRoute(r: RecordedStripeRequest): StripeReply | undefined {
  const key = `${r.method} ${r.path}`;
  switch (key) {
    case 'GET /v1/customers':
      return { body: { object: 'list', url: '/v1/customers', has_more: false, data: r.query.get('email') === 'known@example.com' ? [{ id: 'cus_known', object: 'customer' }] : [] } };
    case 'POST /v1/customers':
      return { body: { id: 'cus_new', object: 'customer', email: r.form.get('email') } };
    case 'POST /v1/payment_intents': {
      if (r.form.get('payment_method') === 'pm_declines') {
        return {
          status: 402,
          body: { error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.', payment_intent: { id: 'pi_declined', object: 'payment_intent' } } },
        };
      }
      const confirmed = r.form.get('confirm') === 'true';
      return { body: { id: 'pi_123', object: 'payment_intent', amount: Number(r.form.get('amount')), client_secret: 'pi_123_secret_abc', status: confirmed ? 'succeeded' : 'requires_payment_method' } };
    }
    case `GET /v1/products/${SUBSCRIPTION_PRODUCT_ID}`:
      return productExists ? { body: { id: SUBSCRIPTION_PRODUCT_ID, object: 'product' } } : undefined;
    case 'POST /v1/products':
      productExists = true;
      return { body: { id: r.form.get('id'), object: 'product' } };
    case 'POST /v1/subscriptions':
      return {
        body: {
          id: 'sub_123', object: 'subscription', status: 'incomplete',
          latest_invoice: { id: 'in_123', object: 'invoice', confirmation_secret: { client_secret: 'pi_inv_secret_xyz', type: 'payment_intent' } },
        },
      };
    case 'POST /v1/setup_intents':
      return { body: { id: 'seti_123', object: 'setup_intent', client_secret: 'seti_123_secret_q' } };
    case 'GET /v1/customers/cus_owner/payment_methods':
      return { body: { object: 'list', url: '/v1/customers/cus_owner/payment_methods', has_more: false, data: [{ id: 'pm_visa', object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } }] } };
    case 'GET /v1/payment_methods/pm_visa':
      return { body: { id: 'pm_visa', object: 'payment_method', customer: 'cus_owner' } };
    case 'POST /v1/payment_methods/pm_visa/detach':
      return { body: { id: 'pm_visa', object: 'payment_method', customer: null } };
    case 'POST /v1/refunds':
      return { body: { id: 're_123', object: 'refund', status: 'succeeded', amount: Number(r.form.get('amount') ?? 0) } };
  }
  return undefined;
}

let api: FakeStripeApi;
let provider: StripeCardProvider;

beforeAll(async () => {
  api = await startFakeStripeApi(stripeRoute);
  provider = new StripeCardProvider({ secretKey: SECRET_KEY, publishableKey: 'pk_test_fake', webhookSecret: 'whsec_fake', apiBase: api.url });
});
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
});

function only(method: string, path: string): RecordedStripeRequest {
  const found = api.requests.filter((r) => r.method === method && r.path === path);
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('StripeCardProvider against a fake Stripe API', () => {
  it('creates a payment intent with integer cents, our metadata, the secret key and an idempotency key', async () => {
    const result = await provider.createPaymentIntent({
      amountCents: 1250, currency: 'usd', customerId: 'cus_owner', metadata: { pending_id: 'p1', user_id: 'u1' }, idempotencyKey: 'pending-p1',
    });
    expect(result).toEqual({ id: 'pi_123', clientSecret: 'pi_123_secret_abc' });
    const req = only('POST', '/v1/payment_intents');
    expect(req.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(req.headers['idempotency-key']).toBe('pending-p1');
    expect(req.headers['stripe-version']).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(req.form.get('amount')).toBe('1250');
    expect(req.form.get('currency')).toBe('usd');
    expect(req.form.get('customer')).toBe('cus_owner');
    expect(req.form.get('metadata[pending_id]')).toBe('p1');
    expect(req.form.get('automatic_payment_methods[enabled]')).toBe('true');
  });

  it('refuses fractional or non-positive amounts before calling Stripe', async () => {
    await expect(provider.createPaymentIntent({ amountCents: 12.5, currency: 'usd', metadata: {} })).rejects.toThrow(RangeError);
    await expect(provider.createPaymentIntent({ amountCents: 0, currency: 'usd', metadata: {} })).rejects.toThrow(RangeError);
    expect(api.requests).toHaveLength(0);
  });

  it('reuses a customer found by e-mail and creates one otherwise', async () => {
    expect(await provider.ensureCustomer({ email: 'known@example.com', name: 'Known', userId: 'u1' })).toBe('cus_known');
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
    expect(await provider.ensureCustomer({ email: 'new@example.com', name: 'New Person', userId: 'u2' })).toBe('cus_new');
    const created = only('POST', '/v1/customers');
    expect(created.form.get('name')).toBe('New Person');
    expect(created.form.get('metadata[user_id]')).toBe('u2');
    expect(created.headers['idempotency-key']).toBe('cellport-customer-u2');
  });

  it('creates a default_incomplete monthly subscription and returns the first invoice confirmation secret', async () => {
    const result = await provider.createSubscription({ customerId: 'cus_owner', priceCents: 4900, intervalDays: 30, metadata: { pending_id: 'p2' } });
    expect(result).toEqual({ id: 'sub_123', clientSecret: 'pi_inv_secret_xyz' });
    // The product was missing, so it was created once with the fixed id before the subscription.
    expect(only('POST', '/v1/products').form.get('id')).toBe(SUBSCRIPTION_PRODUCT_ID);
    const sub = only('POST', '/v1/subscriptions');
    expect(sub.form.get('customer')).toBe('cus_owner');
    expect(sub.form.get('payment_behavior')).toBe('default_incomplete');
    expect(sub.form.get('expand[0]')).toBe('latest_invoice.confirmation_secret');
    expect(sub.form.get('items[0][price_data][unit_amount]')).toBe('4900');
    expect(sub.form.get('items[0][price_data][currency]')).toBe('usd');
    expect(sub.form.get('items[0][price_data][product]')).toBe(SUBSCRIPTION_PRODUCT_ID);
    expect(sub.form.get('items[0][price_data][recurring][interval]')).toBe('day');
    expect(sub.form.get('items[0][price_data][recurring][interval_count]')).toBe('30');
    expect(sub.form.get('metadata[pending_id]')).toBe('p2');

    // A second subscription does not look the product up again.
    api.requests.length = 0;
    await provider.createSubscription({ customerId: 'cus_owner', priceCents: 4900, intervalDays: 30, metadata: {} });
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/subscriptions']);
  });

  it('creates an off-session setup intent for saving a card', async () => {
    expect(await provider.createSetupIntent('cus_owner')).toEqual({ id: 'seti_123', clientSecret: 'seti_123_secret_q' });
    const req = only('POST', '/v1/setup_intents');
    expect(req.form.get('customer')).toBe('cus_owner');
    expect(req.form.get('usage')).toBe('off_session');
  });

  it('charges a saved card off session and confirms at once', async () => {
    const result = await provider.chargeSavedCard({ customerId: 'cus_owner', paymentMethodId: 'pm_visa', amountCents: 2500, metadata: { pending_id: 'p3' } });
    expect(result).toEqual({ id: 'pi_123', status: 'succeeded' });
    const req = only('POST', '/v1/payment_intents');
    expect(req.form.get('off_session')).toBe('true');
    expect(req.form.get('confirm')).toBe('true');
    expect(req.form.get('payment_method')).toBe('pm_visa');
    expect(req.form.get('amount')).toBe('2500');
  });

  it('turns a declined saved card into CardProviderError with the decline code and intent id', async () => {
    const err = await provider
      .chargeSavedCard({ customerId: 'cus_owner', paymentMethodId: 'pm_declines', amountCents: 2500, metadata: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CardProviderError);
    expect(err).toMatchObject({ code: 'card_declined', message: 'Your card was declined.', details: { declineCode: 'generic_decline', paymentIntentId: 'pi_declined', httpStatus: 402 } });
    expect((err as CardProviderError).isCardError).toBe(true);
  });

  it('lists saved cards and detaches only a card that belongs to the customer', async () => {
    expect(await provider.listSavedCards('cus_owner')).toEqual([{ id: 'pm_visa', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 }]);
    await expect(provider.detachPaymentMethod('cus_someone_else', 'pm_visa')).rejects.toMatchObject({ code: 'not_found' });
    expect(api.requests.some((r) => r.path.endsWith('/detach'))).toBe(false);
    await provider.detachPaymentMethod('cus_owner', 'pm_visa');
    only('POST', '/v1/payment_methods/pm_visa/detach');
  });

  it('refunds all or part of a payment', async () => {
    expect(await provider.refund('pi_123', 500)).toEqual({ id: 're_123', status: 'succeeded' });
    const req = only('POST', '/v1/refunds');
    expect(req.form.get('payment_intent')).toBe('pi_123');
    expect(req.form.get('amount')).toBe('500');
    api.requests.length = 0;
    await provider.refund('pi_123');
    expect(only('POST', '/v1/refunds').form.has('amount')).toBe(false);
  });

  it('reports an unknown object as CardProviderError resource_missing', async () => {
    await expect(provider.detachPaymentMethod('cus_owner', 'pm_nope')).rejects.toMatchObject({ name: 'CardProviderError', code: 'resource_missing' });
  });

  it('exposes only the publishable key to the browser', () => {
    expect(provider.publicConfig).toEqual({ provider: 'stripe', publishableKey: 'pk_test_fake' });
  });
});
