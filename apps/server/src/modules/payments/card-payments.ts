import type { Language } from '@cellport/shared';
import type { AppContext } from '../../context.js';
import type { CardEvent, CardPaymentEvent } from '../../integrations/stripe/card-event.js';
import type { CardRefunds } from './card-refunds.js';
import type { Fulfilment, SettleResult } from './fulfilment.js';
import type { OrdersRepository } from './orders.repository.js';
import type { PaymentsRepository } from './payments.repository.js';
import { cardRefundFamily } from './refund-references.js';

const CENT = 10_000n; // micro-USD per cent

/**
 * Acts on card events — from a signed Stripe webhook or from the sandbox provider — and nothing else: a card payment
 * is credited only here. Each credit's reference is the payment intent (or invoice) id, so a redelivered event, or
 * a second event about the same payment, changes nothing.
 */
/**
 * What keeps our row of a card subscription true to the provider (subscriptions' SubscriptionSync): a card event
 * about a subscription ends there. An interface, so payments does not import subscriptions, which imports payments.
 */
export interface SubscriptionEvents {
  sync(subscriptionId: string, failure?: { eventId: string; message: string | null }): Promise<boolean>;
}

export class CardPayments {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly payments: PaymentsRepository,
    private readonly fulfilment: Fulfilment,
    private readonly refunds: CardRefunds,
    private readonly subscriptions: SubscriptionEvents,
    private readonly ctx: Pick<AppContext, 'log'>,
  ) {}

  async handle(event: CardEvent): Promise<void> {
    if (event.type === 'ignored') {
      this.ctx.log.info({ event: event.eventId, type: event.providerType }, 'card event acknowledged and ignored');
      return;
    }
    if (event.currency && event.currency !== 'usd' && !event.type.startsWith('customer.subscription.')) {
      this.ctx.log.warn({ event: event.eventId, currency: event.currency }, 'card event in a currency we do not sell in; nothing booked');
      return;
    }
    switch (event.type) {
      case 'payment_intent.succeeded': return this.intentSucceeded(event);
      case 'invoice.paid': return this.invoicePaid(event);
      case 'charge.refunded': return this.refunded(event);
      case 'charge.dispute.created': return this.disputed(event);
      case 'invoice.payment_failed':
        // Nothing moves; the customer is told once (by event id) and the row shows past_due with the next retry.
        if (event.subscriptionId) await this.subscriptions.sync(event.subscriptionId, { eventId: event.eventId, message: event.failureMessage ?? null });
        return;
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        await this.subscriptions.sync(event.objectId);
    }
  }

  private async intentSucceeded(e: CardPaymentEvent): Promise<void> {
    const order = await this.orderFor(e.metadata.orderId, e.paymentIntentId);
    if (!order) {
      // Subscription invoices also succeed as payment intents; those are booked from invoice.paid.
      this.ctx.log.info({ event: e.eventId, intent: e.objectId }, 'payment intent without an order of ours; nothing booked');
      return;
    }
    if (e.amountCents <= 0) return;
    const subscription = await this.payments.subscriptionOfOrder(order.id);
    if (subscription) return; // a subscription's first payment is booked from its invoice.paid, once
    await this.fulfilment.settleNow({
      userId: order.user_id, orderId: order.id, coin: 'usdt', amount: BigInt(e.amountCents) * CENT,
      reference: `card:${e.paymentIntentId ?? e.objectId}`, kind: 'card',
    });
  }

  private async invoicePaid(e: CardPaymentEvent): Promise<void> {
    if (!e.subscriptionId) return;
    const sub = await this.payments.subscription(e.subscriptionId);
    if (!sub) {
      this.ctx.log.warn({ event: e.eventId, subscription: e.subscriptionId }, 'invoice.paid for a subscription we do not know; nothing booked');
      return;
    }
    const amount = BigInt(e.amountCents) * CENT;
    if (amount <= 0n) return;
    const reference = `card:${e.objectId}`;
    if (e.billingReason !== 'subscription_cycle') {
      await this.fulfilment.settleNow({ userId: sub.user_id, orderId: sub.order_id, coin: 'usdt', amount, reference, kind: 'card' });
      await this.subscriptions.sync(e.subscriptionId);
      return;
    }
    // A monthly charge: renew the ports the subscription bought, one period each.
    const ports = sub.status === 'canceled' ? [] : await this.payments.paidPorts(sub.order_id);
    const result: SettleResult = await this.payments.transaction((tx) => this.fulfilment.creditAndRenew(tx, {
      userId: sub.user_id, orderId: null, coin: 'usdt', amount, reference, kind: 'card', portIds: ports.map((p) => p.id), language: sub.language as Language,
    }));
    await this.fulfilment.announce(sub.user_id, result);
    // The new period, and the reminder before its charge.
    await this.subscriptions.sync(e.subscriptionId);
  }

  /**
   * Stripe reports the charge's refunded total so far: what the ledger does not hold yet of it is taken, after a
   * console refund of the same payment (claimed before Stripe was asked) is booked, once (card-refunds.ts).
   */
  private async refunded(e: CardPaymentEvent): Promise<void> {
    const intent = e.paymentIntentId;
    const order = await this.orderFor(e.metadata.orderId, intent);
    const userId = order?.user_id ?? await this.userFor(e, intent);
    if (!userId || !intent) return;
    const moved = await this.payments.transaction((tx) => this.refunds.book(tx, {
      userId, intent, paymentId: order?.id ?? null,
      event: { refundedTotal: BigInt(e.amountCents) * CENT, reference: `${cardRefundFamily(intent)}${e.eventId}` },
    }));
    if (moved) await this.fulfilment.announce(userId, { credited: true, completed: null });
  }

  private async disputed(e: CardPaymentEvent): Promise<void> {
    const userId = await this.userFor(e, e.paymentIntentId);
    if (!userId) return;
    await this.takeBack(userId, BigInt(e.amountCents) * CENT, `card-dispute:${e.objectId}`, 'card_dispute');
  }

  private async takeBack(userId: string, amount: bigint, reference: string, kind: string): Promise<void> {
    const taken = await this.payments.transaction((tx) => this.fulfilment.takeBack(tx, { userId, amount, reference, kind }));
    if (taken) await this.fulfilment.announce(userId, { credited: true, completed: null });
  }

  private async orderFor(orderId: string | undefined, intentId: string | null) {
    const order = await this.orders.cardOrder(orderId && /^[0-9a-f-]{36}$/i.test(orderId) ? orderId : null, intentId);
    // The metadata names an order; the intent must be the one we created for it.
    if (order && intentId && order.external_id && order.external_id !== intentId) return undefined;
    return order;
  }

  private async userFor(e: CardPaymentEvent, intentId: string | null): Promise<string | null> {
    const order = await this.orderFor(e.metadata.orderId, intentId);
    if (order) return order.user_id;
    if (e.customerId) {
      const userId = await this.payments.userOfCardCustomer(e.customerId);
      if (userId) return userId;
    }
    this.ctx.log.warn({ event: e.eventId, type: e.type }, 'card event for a payment we cannot match to a customer; nothing booked');
    return null;
  }
}
