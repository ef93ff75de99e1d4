import { randomBytes } from 'node:crypto';
import type { CardEventType, CardPaymentEvent } from './card-event.js';
import {
  assertCents,
  assertFirstDiscount,
  type CardProvider,
  type ClientSecretResult,
  type Metadata,
  type PaymentIntentInput,
  type SavedCard,
  type SavedCardChargeInput,
  type SubscriptionChange,
  type SubscriptionInput,
  type SubscriptionState,
  type SubscriptionStatus,
} from './card-provider.js';
import { CardProviderError, WebhookSignatureError } from './errors.js';
import { checkSandboxCard, checkSandboxExpiry, declinesChargesByLast4, isExpired, type SandboxExpiryCheck } from './sandbox-cards.js';
import { memorySandboxCardStore, type SandboxCardStore, type SandboxPaymentMethod, type SandboxSubscriptionSnapshot } from './sandbox-card-store.js';

const DAY_MS = 86_400_000;
/**
 * After a failed renewal the card is tried again this many days after each failure (Stripe's retry schedule of
 * 3, 5 and 7 days); when the last retry fails too, the subscription is canceled, as Stripe's default setting does.
 */
export const SANDBOX_RETRY_DAYS = [3, 5, 7] as const;

/** Receives the sandbox's events; wire it to the same fulfilment function the Stripe webhook route calls. */
export type SandboxEventHandler = (event: CardPaymentEvent) => Promise<void> | void;

interface Intent {
  id: string;
  clientSecret: string;
  amountCents: number;
  customerId: string | null;
  metadata: Metadata;
  subscriptionId: string | null;
  status: 'requires_payment_method' | 'succeeded';
}

interface Subscription {
  id: string;
  customerId: string;
  priceCents: number;
  intervalDays: number;
  metadata: Metadata;
  status: SubscriptionStatus;
  paymentMethodId: string | null;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  nextRetryAt: Date | null;
  /** Failed charges since the last one that went through. */
  failedAttempts: number;
  canceledAt: Date | null;
}

/**
 * The offline card provider, the default when no Stripe keys are set outside production. It keeps the same
 * interface and produces the same normalized events as the Stripe webhook path, so one fulfilment function handles
 * both. The browser's sandbox card form sends the typed number to `settle`; nothing leaves the machine.
 * Saved cards live in the store (the database in the app), so a restart keeps them; a subscription the process forgot
 * is rebuilt from the store on first use. Intents live in this process's memory: a restart forgets unsettled sandbox
 * intents (their pending payments expire).
 */
export class SandboxCardProvider implements CardProvider {
  readonly kind = 'sandbox' as const;
  readonly publicConfig = { provider: 'sandbox' as const };
  private readonly customers = new Map<string, string>(); // e-mail → customer id
  private readonly intents = new Map<string, Intent>();
  private readonly setupIntents = new Map<string, { customerId: string }>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly refundedCents = new Map<string, number>();

  constructor(
    private onEvent: SandboxEventHandler = () => {},
    private readonly clock: () => Date = () => new Date(),
    private readonly store: SandboxCardStore = memorySandboxCardStore(),
  ) {}

  /** Sets where events go (the fulfilment function), replacing the one given to the constructor. */
  setEventHandler(handler: SandboxEventHandler): void {
    this.onEvent = handler;
  }

  async ensureCustomer({ email }: { email: string; name: string; userId: string }): Promise<string> {
    const key = email.toLowerCase();
    let id = this.customers.get(key);
    if (!id) this.customers.set(key, (id = newId('cus')));
    return id;
  }

  async createPaymentIntent(input: PaymentIntentInput): Promise<ClientSecretResult> {
    assertCents(input.amountCents);
    const intent = this.newIntent(input.amountCents, input.customerId ?? null, input.metadata, null);
    return { id: intent.id, clientSecret: intent.clientSecret };
  }

  async createSubscription(input: SubscriptionInput): Promise<ClientSecretResult> {
    assertCents(input.priceCents, 'priceCents');
    const discount = input.firstDiscountCents ?? 0;
    assertFirstDiscount(discount, input.priceCents);
    const id = newId('sub');
    this.subscriptions.set(id, {
      id, customerId: input.customerId, priceCents: input.priceCents, intervalDays: input.intervalDays, metadata: input.metadata,
      status: 'incomplete', paymentMethodId: null, cancelAtPeriodEnd: false, currentPeriodEnd: null, nextRetryAt: null, failedAttempts: 0,
      canceledAt: null,
    });
    // Like Stripe's first invoice: an intent for the first period less its one-time discount, paid with the card form.
    const intent = this.newIntent(input.priceCents - discount, input.customerId, input.metadata, id);
    return { id, clientSecret: intent.clientSecret };
  }

  async createSetupIntent(customerId: string): Promise<ClientSecretResult> {
    const id = newId('seti');
    this.setupIntents.set(id, { customerId });
    return { id, clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}` };
  }

  /**
   * Pays an intent with a typed card number, as the browser's Stripe.js confirm would. On success the event
   * (payment_intent.succeeded, or invoice.paid for a subscription's first payment) goes to the event handler and is
   * returned. A declined or mistyped card throws CardProviderError and nothing is recorded.
   */
  async settle(paymentIntentId: string, cardNumber: string, expiry: string): Promise<CardPaymentEvent> {
    const intent = this.intents.get(intentIdOf(paymentIntentId));
    if (!intent) throw new CardProviderError('resource_missing', 'No such payment intent');
    if (intent.status === 'succeeded') throw new CardProviderError('payment_intent_unexpected_state', 'This payment is already complete.');
    const card = checkSandboxCard(cardNumber);
    if (!card.ok) throw new CardProviderError(card.code, card.message, { paymentIntentId: intent.id, ...(card.declineCode ? { declineCode: card.declineCode } : {}) });
    const expires = this.expiry(expiry);
    intent.status = 'succeeded';
    const subscription = intent.subscriptionId ? this.subscriptions.get(intent.subscriptionId) : undefined;
    if (subscription) {
      subscription.status = 'active';
      subscription.currentPeriodEnd = new Date(this.clock().getTime() + subscription.intervalDays * DAY_MS);
      subscription.paymentMethodId = (await this.savePaymentMethod(subscription.customerId, card.brand, card.last4, expires, false)).id;
      return this.emit(this.invoicePaid(subscription, intent, 'subscription_create'));
    }
    return this.emit(this.event('payment_intent.succeeded', intent.id, intent.amountCents, intent, { paymentIntentId: intent.id }));
  }

  /**
   * Saves a card through a setup intent, as Stripe.js confirmSetup would; returns the saved card. Only the customer
   * the intent was made for may confirm it (Stripe ties the intent to its customer the same way).
   */
  async confirmSetup(setupIntentId: string, cardNumber: string, customerId: string, expiry: string): Promise<SavedCard> {
    const setup = this.setupIntents.get(intentIdOf(setupIntentId));
    if (!setup || setup.customerId !== customerId) throw new CardProviderError('resource_missing', 'No such setup intent');
    const card = checkSandboxCard(cardNumber, 'setup');
    if (!card.ok) throw new CardProviderError(card.code, card.message, card.declineCode ? { declineCode: card.declineCode } : {});
    const expires = this.expiry(expiry);
    this.setupIntents.delete(intentIdOf(setupIntentId));
    const pm = await this.savePaymentMethod(setup.customerId, card.brand, card.last4, expires, card.declinesCharges);
    return { id: pm.id, brand: pm.brand, last4: pm.last4, expMonth: pm.expMonth, expYear: pm.expYear };
  }

  async listSavedCards(customerId: string): Promise<SavedCard[]> {
    return (await this.store.paymentMethodsOf(customerId)).map(({ id, brand, last4, expMonth, expYear }) => ({ id, brand, last4, expMonth, expYear }));
  }

  async chargeSavedCard(input: SavedCardChargeInput): Promise<{ id: string; status: string }> {
    assertCents(input.amountCents);
    const pm = await this.store.paymentMethod(input.paymentMethodId);
    if (!pm || pm.customerId !== input.customerId) throw new CardProviderError('resource_missing', 'No such saved card');
    const intent = this.newIntent(input.amountCents, input.customerId, input.metadata, null);
    if (isExpired(pm.expMonth, pm.expYear, this.clock())) throw new CardProviderError('expired_card', 'Your card has expired.', { paymentIntentId: intent.id });
    if (pm.declinesCharges) throw new CardProviderError('card_declined', 'Your card was declined.', { declineCode: 'generic_decline', paymentIntentId: intent.id });
    intent.status = 'succeeded';
    await this.emit(this.event('payment_intent.succeeded', intent.id, intent.amountCents, intent, { paymentIntentId: intent.id }));
    return { id: intent.id, status: 'succeeded' };
  }

  async detachPaymentMethod(customerId: string, paymentMethodId: string): Promise<void> {
    const pm = await this.store.paymentMethod(paymentMethodId);
    if (!pm || pm.customerId !== customerId) throw new CardProviderError('not_found', 'No such saved card');
    await this.store.deletePaymentMethod(paymentMethodId);
  }

  async refund(paymentIntentId: string, amountCents?: number): Promise<{ id: string; status: string }> {
    const intent = this.intents.get(paymentIntentId);
    if (!intent || intent.status !== 'succeeded') throw new CardProviderError('resource_missing', 'No such successful payment');
    const already = this.refundedCents.get(intent.id) ?? 0;
    const amount = amountCents ?? intent.amountCents - already;
    assertCents(amount);
    if (already + amount > intent.amountCents) throw new CardProviderError('amount_too_large', 'Refund is larger than what remains of the payment.');
    this.refundedCents.set(intent.id, already + amount);
    // Stripe reports the charge's cumulative refunded total; so does the sandbox.
    await this.emit(this.event('charge.refunded', `ch_${intent.id.slice(3)}`, already + amount, intent, { paymentIntentId: intent.id }));
    return { id: newId('re'), status: 'succeeded' };
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionState> {
    return this.stateOf(await this.subscriptionOrThrow(subscriptionId));
  }

  /** As Stripe: cancel_at_period_end on or off, or another saved card of the same customer; a customer.subscription.updated follows. */
  async updateSubscription(subscriptionId: string, change: SubscriptionChange): Promise<SubscriptionState> {
    const sub = await this.subscriptionOrThrow(subscriptionId);
    if (sub.status === 'canceled') throw new CardProviderError('subscription_canceled', 'A canceled subscription cannot be changed.');
    if (change.paymentMethodId !== undefined) {
      const pm = await this.store.paymentMethod(change.paymentMethodId);
      if (!pm || pm.customerId !== sub.customerId) throw new CardProviderError('resource_missing', 'No such saved card');
      sub.paymentMethodId = pm.id;
    }
    if (change.cancelAtPeriodEnd !== undefined) sub.cancelAtPeriodEnd = change.cancelAtPeriodEnd;
    await this.emitSubscription('customer.subscription.updated', sub);
    return this.stateOf(sub);
  }

  /** Ends a subscription at once, as cancelling it in Stripe's dashboard would: no more charges. */
  async cancelSubscriptionNow(subscriptionId: string): Promise<SubscriptionState> {
    const sub = await this.subscriptionOrThrow(subscriptionId);
    if (sub.status === 'canceled') throw new CardProviderError('subscription_canceled', 'This subscription has already ended.');
    this.end(sub, this.clock());
    await this.emitSubscription('customer.subscription.deleted', sub);
    return this.stateOf(sub);
  }

  /**
   * What Stripe does on its own schedule, run by a durable job when the subscription is due (card-subscriptions.ts):
   * at the period's end a subscription set to cancel ends; any other is charged for the next period (the period moves
   * on whether or not the card pays, as Stripe's does). A charge the card refuses makes it past_due with a retry
   * SANDBOX_RETRY_DAYS later; after the last retry it is canceled. Answers false when nothing was due at `now`.
   */
  async advance(subscriptionId: string, now: Date): Promise<boolean> {
    const sub = await this.subscriptionOrThrow(subscriptionId);
    if (sub.status === 'canceled' || sub.status === 'incomplete' || !sub.currentPeriodEnd) return false;
    if (sub.status === 'active' && sub.cancelAtPeriodEnd) {
      if (now < sub.currentPeriodEnd) return false;
      this.end(sub, sub.currentPeriodEnd);
      await this.emitSubscription('customer.subscription.deleted', sub);
      return true;
    }
    const due = sub.status === 'past_due' ? sub.nextRetryAt : sub.currentPeriodEnd;
    if (!due || now < due) return false;
    if (sub.status === 'active') sub.currentPeriodEnd = new Date(sub.currentPeriodEnd.getTime() + sub.intervalDays * DAY_MS);
    const pm = sub.paymentMethodId ? await this.store.paymentMethod(sub.paymentMethodId) : undefined;
    const refusal = !pm ? 'The subscription has no card to charge.'
      : isExpired(pm.expMonth, pm.expYear, now) ? 'Your card has expired.'
        : pm.declinesCharges ? 'Your card was declined.' : null;
    const intent = this.newIntent(sub.priceCents, sub.customerId, sub.metadata, sub.id);
    if (refusal === null) {
      intent.status = 'succeeded';
      sub.status = 'active';
      sub.failedAttempts = 0;
      sub.nextRetryAt = null;
      await this.emit(this.invoicePaid(sub, intent, 'subscription_cycle'));
      return true;
    }
    sub.failedAttempts += 1;
    const retryDays = SANDBOX_RETRY_DAYS[sub.failedAttempts - 1];
    const ends = retryDays === undefined;
    if (ends) this.end(sub, now);
    else {
      sub.status = 'past_due';
      sub.nextRetryAt = new Date(now.getTime() + retryDays * DAY_MS);
    }
    await this.emit({
      ...this.event('invoice.payment_failed', newId('in'), sub.priceCents, { customerId: sub.customerId, metadata: sub.metadata }, { paymentIntentId: intent.id, subscriptionId: sub.id }),
      billingReason: 'subscription_cycle', failureMessage: refusal,
    });
    if (ends) await this.emitSubscription('customer.subscription.deleted', sub);
    return true;
  }

  knowsSubscription(subscriptionId: string): boolean {
    return this.subscriptions.has(subscriptionId);
  }

  /** The subscription from memory or, when this process forgot it (a restart), rebuilt from the store. */
  private async subscriptionOrThrow(subscriptionId: string): Promise<Subscription> {
    const known = this.subscriptions.get(subscriptionId);
    if (known) return known;
    const snapshot = await this.store.subscription(subscriptionId);
    if (!snapshot) throw new CardProviderError('resource_missing', 'No such subscription');
    return this.restore(snapshot);
  }

  /**
   * Rebuilds a forgotten subscription from what our database knows, so its schedule goes on. Its card is the saved
   * one; a card saved before saved cards were kept in the database is rebuilt from its brand and last digits, refusing
   * charges if it is the test card that does.
   */
  private async restore(snapshot: SandboxSubscriptionSnapshot): Promise<Subscription> {
    const card = snapshot.card;
    if (card && !(await this.store.paymentMethod(card.paymentMethodId))) {
      await this.store.savePaymentMethod({
        id: card.paymentMethodId, customerId: snapshot.customerId, brand: card.brand, last4: card.last4, expMonth: 12,
        expYear: this.clock().getUTCFullYear() + 3, declinesCharges: declinesChargesByLast4(card.last4),
      });
    }
    // Two requests may have restored it at once: the first one kept wins, so both act on the same object.
    const known = this.subscriptions.get(snapshot.id);
    if (known) return known;
    const sub: Subscription = {
      id: snapshot.id, customerId: snapshot.customerId, priceCents: snapshot.priceCents, intervalDays: snapshot.intervalDays,
      metadata: { ...snapshot.metadata }, status: snapshot.status, paymentMethodId: card?.paymentMethodId ?? null,
      cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd, currentPeriodEnd: snapshot.currentPeriodEnd, nextRetryAt: snapshot.nextRetryAt,
      failedAttempts: snapshot.status === 'past_due' ? 1 : 0, canceledAt: null,
    };
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  private end(sub: Subscription, at: Date): void {
    sub.status = 'canceled';
    sub.canceledAt = at;
    sub.nextRetryAt = null;
  }

  private async stateOf(sub: Subscription): Promise<SubscriptionState> {
    const pm = sub.paymentMethodId ? await this.store.paymentMethod(sub.paymentMethodId) : undefined;
    return {
      id: sub.id, status: sub.status, cancelAtPeriodEnd: sub.cancelAtPeriodEnd, currentPeriodEnd: sub.currentPeriodEnd,
      nextRetryAt: sub.status === 'past_due' ? sub.nextRetryAt : null,
      card: pm ? { paymentMethodId: pm.id, brand: pm.brand, last4: pm.last4 } : null,
      canceledAt: sub.canceledAt,
    };
  }

  private emitSubscription(type: 'customer.subscription.updated' | 'customer.subscription.deleted', sub: Subscription): Promise<CardPaymentEvent> {
    return this.emit(this.event(type, sub.id, 0, { customerId: sub.customerId, metadata: sub.metadata }, { subscriptionId: sub.id }));
  }

  /** The sandbox receives no webhooks: anything posted to the webhook route while it is active is refused. */
  verifyWebhook(): never {
    throw new WebhookSignatureError('Card payments run in sandbox mode; webhooks are not accepted');
  }

  private newIntent(amountCents: number, customerId: string | null, metadata: Metadata, subscriptionId: string | null): Intent {
    const id = newId('pi');
    const intent: Intent = {
      id, clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`, amountCents, customerId, metadata: { ...metadata }, subscriptionId, status: 'requires_payment_method',
    };
    this.intents.set(id, intent);
    return intent;
  }

  /** The typed expiry, or the refusal Stripe.js would give for it. */
  private expiry(expiry: string): Extract<SandboxExpiryCheck, { ok: true }> {
    const check = checkSandboxExpiry(expiry, this.clock());
    if (!check.ok) throw new CardProviderError(check.code, check.message);
    return check;
  }

  private async savePaymentMethod(customerId: string, brand: string, last4: string, expires: { month: number; year: number }, declinesCharges: boolean): Promise<SandboxPaymentMethod> {
    const pm: SandboxPaymentMethod = {
      id: newId('pm'), customerId, brand, last4, expMonth: expires.month, expYear: expires.year, declinesCharges,
    };
    await this.store.savePaymentMethod(pm);
    return pm;
  }

  /** The invoice's amount is what its intent charged: the first one's discount, the renewals' full price. */
  private invoicePaid(sub: Subscription, intent: Intent, billingReason: string): CardPaymentEvent {
    return {
      ...this.event('invoice.paid', newId('in'), intent.amountCents, { customerId: sub.customerId, metadata: sub.metadata }, { paymentIntentId: intent.id, subscriptionId: sub.id }),
      billingReason,
    };
  }

  private event(
    type: CardEventType,
    objectId: string,
    amountCents: number,
    owner: { customerId: string | null; metadata: Metadata },
    links: { paymentIntentId?: string; subscriptionId?: string },
  ): CardPaymentEvent {
    return {
      type,
      eventId: newId('evt'),
      objectId,
      amountCents,
      currency: 'usd',
      metadata: { ...owner.metadata },
      paymentIntentId: links.paymentIntentId ?? null,
      subscriptionId: links.subscriptionId ?? null,
      customerId: owner.customerId,
      billingReason: null,
    };
  }

  private async emit(event: CardPaymentEvent): Promise<CardPaymentEvent> {
    await this.onEvent(event);
    return event;
  }
}

function newId(prefix: string): string {
  return `${prefix}_sandbox_${randomBytes(12).toString('hex')}`;
}

/** Accepts an intent id or its client secret (`pi_…_secret_…` / `seti_…_secret_…`), which is what the browser holds. */
function intentIdOf(idOrSecret: string): string {
  return idOrSecret.split('_secret_')[0] ?? idOrSecret;
}
