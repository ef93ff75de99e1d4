import { describe, expect, it } from 'vitest';
import { normalizeStripeEvent } from './normalize-stripe-event.js';

const event = (type: string, object: Record<string, unknown>) => ({ id: `evt_${type}`, type, data: { object } });

describe('normalizeStripeEvent', () => {
  it('reads a renewal invoice.paid in the current API shape (subscription under parent.subscription_details)', () => {
    const e = normalizeStripeEvent(event('invoice.paid', {
      id: 'in_1', amount_paid: 4900, currency: 'usd', customer: 'cus_1', billing_reason: 'subscription_cycle', metadata: {},
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1', metadata: { pending_id: 'p9', user_id: 'u1' } } },
    }));
    expect(e).toEqual({
      type: 'invoice.paid', eventId: 'evt_invoice.paid', objectId: 'in_1', amountCents: 4900, currency: 'usd',
      metadata: { pending_id: 'p9', user_id: 'u1' }, paymentIntentId: null, subscriptionId: 'sub_1', customerId: 'cus_1',
      billingReason: 'subscription_cycle',
    });
  });

  it('still reads an older invoice payload with a top-level subscription and payment_intent', () => {
    const e = normalizeStripeEvent(event('invoice.paid', { id: 'in_2', amount_paid: 100, currency: 'usd', subscription: 'sub_2', payment_intent: 'pi_2' }));
    expect(e).toMatchObject({ subscriptionId: 'sub_2', paymentIntentId: 'pi_2', amountCents: 100 });
  });

  it('reports a refund with the cumulative refunded amount and the payment intent', () => {
    const e = normalizeStripeEvent(event('charge.refunded', {
      id: 'ch_1', amount: 5000, amount_refunded: 2000, currency: 'usd', payment_intent: 'pi_1', customer: { id: 'cus_1', object: 'customer' }, metadata: { pending_id: 'p1' },
    }));
    expect(e).toMatchObject({ type: 'charge.refunded', objectId: 'ch_1', amountCents: 2000, paymentIntentId: 'pi_1', customerId: 'cus_1', metadata: { pending_id: 'p1' } });
  });

  it('reports a dispute with the disputed amount', () => {
    const e = normalizeStripeEvent(event('charge.dispute.created', { id: 'dp_1', amount: 5000, currency: 'usd', charge: 'ch_1', payment_intent: 'pi_1' }));
    expect(e).toMatchObject({ type: 'charge.dispute.created', objectId: 'dp_1', amountCents: 5000, paymentIntentId: 'pi_1' });
  });

  it('reports a deleted subscription with no money moving', () => {
    const e = normalizeStripeEvent(event('customer.subscription.deleted', { id: 'sub_1', customer: 'cus_1', metadata: { user_id: 'u1' } }));
    expect(e).toMatchObject({ type: 'customer.subscription.deleted', subscriptionId: 'sub_1', amountCents: 0, customerId: 'cus_1' });
  });

  it('never turns a missing or non-integer amount into money', () => {
    expect(normalizeStripeEvent(event('payment_intent.succeeded', { id: 'pi_x', amount: '5000' }))).toMatchObject({ amountCents: 0 });
    expect(normalizeStripeEvent(event('payment_intent.succeeded', { id: 'pi_x', amount: 12.5 }))).toMatchObject({ amountCents: 0 });
  });
});
