import { ERRORS, type Language } from '@cellport/shared';
import type { CreatePaymentIntentResponse, CreateSubscriptionResponse, PendingPayment } from '@cellport/shared/schemas/payments';
import { CardProviderError } from '../../integrations/stripe/errors.js';
import { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { cardError, type CardCustomers } from './card-customers.js';
import { microToCentsUp, type OrderInput, type OrderPricing } from './order-pricing.js';
import type { OrdersRepository } from './orders.repository.js';
import type { OrdersService } from './orders.service.js';
import type { PaymentsRepository } from './payments.repository.js';
import type { PaymentsRuntime } from './payments-runtime.js';

const CENT = 10_000n;
const intentIdOf = (clientSecret: string) => clientSecret.split('_secret_')[0] ?? '';

/** What a card checkout sends: the order, and for a top-up its amount in cents. */
export type CardOrderInput = OrderInput & { amount?: number | string | null | undefined };

export interface CardCheckoutDeps {
  customers: CardCustomers;
  pricing: OrderPricing;
  orders: OrdersService;
  orderRows: OrdersRepository;
  payments: PaymentsRepository;
  rt: PaymentsRuntime;
}

/**
 * Paying by card (spec §7): a payment intent, a monthly subscription, a charge of a saved card, and the sandbox's
 * card form. Each creates the order first (its id is the provider's idempotency key); the money is credited only
 * from the provider's event (CardPayments).
 */
export class CardCheckout {
  constructor(private readonly deps: CardCheckoutDeps) {}

  private quote(userId: string, body: CardOrderInput, lng: Language) {
    const cents = body.amount === undefined || body.amount === null ? null : BigInt(body.amount);
    return this.deps.pricing.quote(userId, body, cents === null ? null : cents * CENT, lng);
  }

  async paymentIntent(userId: string, body: CardOrderInput, lng: Language): Promise<CreatePaymentIntentResponse> {
    const { customers, orders, orderRows } = this.deps;
    const q = await this.quote(userId, body, lng);
    const cus = await customers.ensure(userId);
    const amountCents = microToCentsUp(q.amount);
    const order = await orders.create({ userId, provider: 'card', quote: q, providerAmount: amountCents, lng });
    const intent = await customers.provider().createPaymentIntent({
      amountCents: Number(amountCents), currency: 'usd', customerId: cus.id, metadata: { orderId: order.id, userId }, idempotencyKey: order.id,
    }).catch(cardError);
    await orderRows.setExternalId(order.id, intent.id);
    return { payment_intent: { id: intent.id, client_secret: intent.clientSecret }, email: cus.email, name: cus.name };
  }

  /**
   * A monthly subscription: only for a purchase of a recurring monthly tariff. Every period costs what renewing the
   * ports costs; the first order's discounts (coupon, volume step) come off the first charge only, so it is the quote.
   */
  async subscription(userId: string, body: CardOrderInput, lng: Language): Promise<CreateSubscriptionResponse> {
    const { customers, orders, payments } = this.deps;
    const q = await this.quote(userId, body, lng);
    const cus = await customers.ensure(userId);
    if (q.kind !== 'purchase' || q.tariff?.period !== 'month' || !q.tariff.recurring) {
      return { clientSecret: null, email: cus.email, error: ERRORS.SUBSCRIPTION_NOT_AVAILABLE };
    }
    const firstCents = microToCentsUp(q.amount);
    const periodCents = microToCentsUp(q.tariff.periodPrice);
    const order = await orders.create({ userId, provider: 'card', quote: q, providerAmount: firstCents, lng });
    const sub = await customers.provider().createSubscription({
      customerId: cus.id, priceCents: Number(periodCents), firstDiscountCents: Number(periodCents - firstCents), intervalDays: q.tariff.period_days,
      metadata: { orderId: order.id, userId }, idempotencyKey: order.id,
    }).catch(cardError);
    await payments.recordSubscription(sub.id, userId, order.id, intentIdOf(sub.clientSecret), { amount: periodCents * CENT, intervalDays: q.tariff.period_days });
    return { clientSecret: sub.clientSecret, email: cus.email, error: null };
  }

  async chargeSavedCard(userId: string, paymentMethodId: string, body: CardOrderInput, lng: Language): Promise<{ error: null; data: { payment: PendingPayment } }> {
    const { customers, orders, orderRows } = this.deps;
    const q = await this.quote(userId, body, lng);
    const cus = await customers.ensure(userId);
    const amountCents = microToCentsUp(q.amount);
    const order = await orders.create({ userId, provider: 'card', quote: q, providerAmount: amountCents, lng });
    try {
      // The sandbox emits its event before answering; Stripe sends the webhook. Either way the credit comes from the event.
      const charge = await customers.provider().chargeSavedCard({
        customerId: cus.id, paymentMethodId, amountCents: Number(amountCents), metadata: { orderId: order.id, userId }, idempotencyKey: order.id,
      });
      await orderRows.setExternalIdIfUnset(order.id, charge.id);
    } catch (err) {
      await orderRows.failIfPending(order.id);
      cardError(err);
    }
    return { error: null, data: { payment: await orders.ownView(userId, order.id) } };
  }

  /** The offline card form (no Stripe keys, never in production): settles through the same event handler as Stripe. */
  async sandboxConfirm(userId: string, input: { clientSecret: string; cardNumber: string; expiry: string }): Promise<{ status: 'succeeded' }> {
    const card = this.deps.rt.card;
    if (!(card instanceof SandboxCardProvider)) throw notFound();
    const order = await this.deps.orderRows.ownByExternalId(userId, intentIdOf(input.clientSecret));
    if (!order) throw notFound();
    await card.settle(input.clientSecret, input.cardNumber, input.expiry).catch((err: unknown) => {
      if (err instanceof CardProviderError && err.code !== 'resource_missing' && err.code !== 'payment_intent_unexpected_state') {
        throw new AppError('CARD_DECLINED', 402, ERRORS.CARD_DECLINED);
      }
      if (err instanceof CardProviderError) throw new AppError('PAYMENT_NOT_PENDING');
      throw err;
    });
    return { status: 'succeeded' as const };
  }
}
