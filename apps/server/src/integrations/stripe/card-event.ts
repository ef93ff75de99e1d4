/**
 * The small set of card events the fulfilment code acts on, in one flat shape whether they came from a signed Stripe
 * webhook or from the offline sandbox. `eventId` is the provider's event id: the ledger uses it as the unique external
 * reference, so a redelivered event changes nothing.
 *
 * What `amountCents` means per type:
 * - payment_intent.succeeded: the amount received.
 * - invoice.paid: the amount paid on the invoice (first payment and every renewal of a subscription).
 * - charge.refunded: the TOTAL refunded on that charge so far (Stripe reports it cumulatively); debit the difference
 *   from what was already debited for `paymentIntentId`.
 * - charge.dispute.created: the disputed amount.
 * - customer.subscription.deleted: 0 (nothing moves; renewals stop).
 * - customer.subscription.created / .updated: 0 (its status, cancel_at_period_end, period or card changed).
 * - invoice.payment_failed: the amount the failed charge asked for (nothing moves; the customer is told).
 * Subscription events are acted on from the subscription as the provider holds it when the event arrives
 * (CardProvider.retrieveSubscription), so a late or repeated event never puts back an older state.
 */
export type CardEventType =
  | 'payment_intent.succeeded'
  | 'invoice.paid'
  | 'charge.refunded'
  | 'charge.dispute.created'
  | 'customer.subscription.deleted'
  | 'customer.subscription.created'
  | 'customer.subscription.updated'
  | 'invoice.payment_failed';

export const CARD_EVENT_TYPES: readonly CardEventType[] = [
  'payment_intent.succeeded',
  'invoice.paid',
  'charge.refunded',
  'charge.dispute.created',
  'customer.subscription.deleted',
  'customer.subscription.created',
  'customer.subscription.updated',
  'invoice.payment_failed',
];

export interface CardPaymentEvent {
  type: CardEventType;
  eventId: string;
  /** Id of the object the event is about (pi_…, in_…, ch_…, dp_…, sub_…). */
  objectId: string;
  amountCents: number;
  /** Lower-case ISO code as Stripe writes it ('usd'). */
  currency: string;
  /** Our own metadata set when the intent/subscription was created; empty for objects we did not create. */
  metadata: Record<string, string>;
  paymentIntentId: string | null;
  subscriptionId: string | null;
  customerId: string | null;
  /** invoice.paid only: 'subscription_create' for the first payment, 'subscription_cycle' for renewals. */
  billingReason: string | null;
  /** invoice.payment_failed from the sandbox: why the card was refused (Stripe's payload does not say; null). */
  failureMessage?: string | null;
}

/** A verified event of a type we do not act on; the endpoint acknowledges it so Stripe stops resending. */
export interface IgnoredCardEvent {
  type: 'ignored';
  eventId: string;
  providerType: string;
}

export type CardEvent = CardPaymentEvent | IgnoredCardEvent;

export function isCardEventType(type: string): type is CardEventType {
  return (CARD_EVENT_TYPES as readonly string[]).includes(type);
}
