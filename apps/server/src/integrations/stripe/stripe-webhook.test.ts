import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookSignatureError } from './errors.js';
import { StripeCardProvider } from './stripe-card-provider.js';

const WEBHOOK_SECRET = 'whsec_test_signing_secret';
const provider = new StripeCardProvider({ secretKey: 'sk_test_x', publishableKey: 'pk_test_x', webhookSecret: WEBHOOK_SECRET });

/** Signs like Stripe does: `t=<unix seconds>,v1=hex(HMAC-SHA256(secret, "<t>.<raw body>"))`. */
function sign(body: string, { secret = WEBHOOK_SECRET, timestamp = Math.floor(Date.now() / 1000) } = {}): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

const succeeded = JSON.stringify({
  id: 'evt_1',
  object: 'event',
  type: 'payment_intent.succeeded',
  data: { object: { id: 'pi_1', object: 'payment_intent', amount: 5000, amount_received: 5000, currency: 'usd', customer: 'cus_1', metadata: { pending_id: 'p1' } } },
});

describe('StripeCardProvider.verifyWebhook', () => {
  it('accepts a correctly signed raw body and returns the normalized event', () => {
    const event = provider.verifyWebhook(Buffer.from(succeeded), sign(succeeded));
    expect(event).toEqual({
      type: 'payment_intent.succeeded', eventId: 'evt_1', objectId: 'pi_1', amountCents: 5000, currency: 'usd',
      metadata: { pending_id: 'p1' }, paymentIntentId: 'pi_1', subscriptionId: null, customerId: 'cus_1', billingReason: null,
    });
  });

  it('refuses a signature made with another secret', () => {
    expect(() => provider.verifyWebhook(Buffer.from(succeeded), sign(succeeded, { secret: 'whsec_attacker' }))).toThrow(WebhookSignatureError);
  });

  it('refuses a body changed after signing (even only the amount)', () => {
    const header = sign(succeeded);
    const tampered = succeeded.replace('"amount_received":5000', '"amount_received":500000');
    expect(tampered).not.toBe(succeeded);
    expect(() => provider.verifyWebhook(Buffer.from(tampered), header)).toThrow(WebhookSignatureError);
  });

  it('refuses a re-serialized body: the check is over the raw bytes', () => {
    const reformatted = JSON.stringify(JSON.parse(succeeded), null, 2);
    expect(() => provider.verifyWebhook(Buffer.from(reformatted), sign(succeeded))).toThrow(WebhookSignatureError);
  });

  it('refuses a stale timestamp (older than five minutes), even with a valid signature', () => {
    const stale = Math.floor(Date.now() / 1000) - 10 * 60;
    expect(() => provider.verifyWebhook(Buffer.from(succeeded), sign(succeeded, { timestamp: stale }))).toThrow(/timestamp/i);
  });

  it('refuses a missing or malformed header', () => {
    expect(() => provider.verifyWebhook(Buffer.from(succeeded), undefined)).toThrow(WebhookSignatureError);
    expect(() => provider.verifyWebhook(Buffer.from(succeeded), 'garbage')).toThrow(WebhookSignatureError);
  });

  it('acknowledges a verified event of a type we do not act on as ignored', () => {
    const body = JSON.stringify({ id: 'evt_2', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1' } } });
    expect(provider.verifyWebhook(Buffer.from(body), sign(body))).toEqual({ type: 'ignored', eventId: 'evt_2', providerType: 'customer.created' });
  });
});
