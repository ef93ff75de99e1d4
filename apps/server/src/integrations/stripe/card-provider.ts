import type { CardEvent } from './card-event.js';

/**
 * Card payments behind one interface. Two implementations: `StripeCardProvider` (the official SDK, real keys) and
 * `SandboxCardProvider` (offline, the default outside production). Amounts are integer US cents; the card provider
 * never sees our ledger's micro-units. Money is credited only from events (`verifyWebhook` for Stripe, the sandbox's
 * event handler for the sandbox), never from what a browser says after paying.
 */
export interface CardProvider {
  readonly kind: 'stripe' | 'sandbox';
  /** What the browser needs: Stripe's publishable key, or the sandbox marker (the page renders its own card form). */
  readonly publicConfig: { provider: 'stripe'; publishableKey: string } | { provider: 'sandbox' };

  /** Finds the customer with this e-mail or creates one; keep the id beside the user to skip the lookup next time. */
  ensureCustomer(input: { email: string; name: string; userId: string }): Promise<string>;
  /** A one-time payment the browser confirms with the client secret. */
  createPaymentIntent(input: PaymentIntentInput): Promise<ClientSecretResult>;
  /** A monthly subscription whose first invoice the browser pays with the returned client secret. */
  createSubscription(input: SubscriptionInput): Promise<ClientSecretResult>;
  /** The subscription as the provider holds it now (its card included): events are acted on from this, not from their payload. */
  retrieveSubscription(subscriptionId: string): Promise<SubscriptionState>;
  /**
   * Sets Stripe's cancel_at_period_end (true: no more charges, it ends when the paid period does; false: resumes)
   * and/or the card later charges use. Answers the new state.
   */
  updateSubscription(subscriptionId: string, change: SubscriptionChange): Promise<SubscriptionState>;
  /** Ends a subscription at once: no more charges (the time already paid for is not refunded). */
  cancelSubscriptionNow(subscriptionId: string): Promise<SubscriptionState>;
  /** Lets the browser save a card for later off-session charges. */
  createSetupIntent(customerId: string): Promise<ClientSecretResult>;
  /** The customer's saved cards, newest first. */
  listSavedCards(customerId: string): Promise<SavedCard[]>;
  /** Charges a saved card without the customer present; throws CardProviderError (card_declined, …) on refusal. */
  chargeSavedCard(input: SavedCardChargeInput): Promise<{ id: string; status: string }>;
  /** Removes a saved card, only if it belongs to this customer (otherwise CardProviderError 'not_found'). */
  detachPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;
  /** Refunds all of a payment, or `amountCents` of it. The debit arrives later as a `charge.refunded` event. */
  refund(paymentIntentId: string, amountCents?: number): Promise<{ id: string; status: string }>;
  /**
   * Checks a webhook delivery's signature over the RAW body and returns the normalized event. Throws
   * WebhookSignatureError for a missing/wrong signature, a changed body or a stale timestamp.
   */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): CardEvent;
}

export type Metadata = Record<string, string>;

export interface PaymentIntentInput {
  amountCents: number;
  currency: 'usd';
  customerId?: string;
  metadata: Metadata;
  /** The same key twice returns the same intent (a retried request must not make a second charge). */
  idempotencyKey?: string;
}

export interface SubscriptionInput {
  customerId: string;
  /** What every period costs, the first included: the undiscounted price of what is renewed. */
  priceCents: number;
  /**
   * Taken off the first invoice only (a first order's coupon and volume step), as a Stripe coupon with
   * `duration: 'once'` does; renewals charge `priceCents`. 0 or absent: no discount. Less than `priceCents`.
   */
  firstDiscountCents?: number;
  /** The period in days (a monthly tariff's 30), so each charge falls when the port's paid time runs out. */
  intervalDays: number;
  metadata: Metadata;
  idempotencyKey?: string;
}

/** Stripe's subscription statuses, narrowed to the four a customer is shown (normalizeSubscriptionStatus). */
export type SubscriptionStatus = 'incomplete' | 'active' | 'past_due' | 'canceled';

export interface SubscriptionState {
  id: string;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  /** End of the paid period; null before the first payment. */
  currentPeriodEnd: Date | null;
  /** While past_due: when the card is tried again (Stripe's invoice next_payment_attempt), else null. */
  nextRetryAt: Date | null;
  card: { paymentMethodId: string; brand: string; last4: string } | null;
  canceledAt: Date | null;
}

export interface SubscriptionChange {
  cancelAtPeriodEnd?: boolean;
  paymentMethodId?: string;
}

export interface SavedCardChargeInput {
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  metadata: Metadata;
  idempotencyKey?: string;
}

export interface ClientSecretResult {
  id: string;
  clientSecret: string;
}

export interface SavedCard {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/**
 * Stripe's eight statuses as the four a customer is shown: trialing counts as active; unpaid and paused as past_due
 * (charges stopped for want of payment); incomplete_expired as canceled.
 */
export function normalizeSubscriptionStatus(status: string): SubscriptionStatus {
  switch (status) {
    case 'active': case 'trialing': return 'active';
    case 'past_due': case 'unpaid': case 'paused': return 'past_due';
    case 'canceled': case 'incomplete_expired': return 'canceled';
    default: return 'incomplete';
  }
}

/** A first invoice's one-time discount: whole cents, not negative, leaving at least a cent of the first charge. */
export function assertFirstDiscount(discountCents: number, priceCents: number): void {
  if (!Number.isSafeInteger(discountCents) || discountCents < 0 || discountCents >= priceCents) {
    throw new RangeError(`firstDiscountCents must be whole cents from 0 to below the price ${priceCents}, got ${discountCents}`);
  }
}

/** Amounts cross the provider boundary as integer cents; anything else is a bug on our side, not a customer error. */
export function assertCents(amountCents: number, label = 'amountCents'): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new RangeError(`${label} must be a positive integer number of cents, got ${amountCents}`);
  }
}
