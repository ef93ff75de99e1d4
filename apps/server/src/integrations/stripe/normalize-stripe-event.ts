import type { CardEvent, CardEventType } from './card-event.js';
import { isCardEventType } from './card-event.js';

/** The parts of a Stripe event we read. Typed loosely on purpose: the payload's shape follows the API version the
 * webhook endpoint was created with, which may be older or newer than the SDK's types. */
interface StripeEventLike {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

/** Turns a verified Stripe event into our flat CardEvent; types we do not act on become `ignored`. */
export function normalizeStripeEvent(event: StripeEventLike): CardEvent {
  if (!isCardEventType(event.type)) return { type: 'ignored', eventId: event.id, providerType: event.type };
  const o = event.data.object;
  const base = {
    type: event.type as CardEventType,
    eventId: event.id,
    objectId: str(o.id) ?? '',
    currency: str(o.currency) ?? 'usd',
    metadata: metadataOf(o.metadata),
    customerId: idOf(o.customer),
    billingReason: null as string | null,
  };
  switch (event.type) {
    case 'payment_intent.succeeded':
      return { ...base, amountCents: int(o.amount_received ?? o.amount), paymentIntentId: base.objectId, subscriptionId: null };
    case 'invoice.paid':
      return {
        ...base,
        amountCents: int(o.amount_paid),
        // Since API 2025-03-31 the subscription lives under parent.subscription_details, and so does a snapshot of
        // the subscription's metadata; older payloads carry `subscription` at the top level.
        metadata: { ...metadataOf(subscriptionDetails(o)?.metadata), ...metadataOf(o.metadata) },
        subscriptionId: idOf(subscriptionDetails(o)?.subscription) ?? idOf(o.subscription),
        paymentIntentId: idOf(o.payment_intent),
        billingReason: str(o.billing_reason),
      };
    case 'charge.refunded':
      return { ...base, amountCents: int(o.amount_refunded), paymentIntentId: idOf(o.payment_intent), subscriptionId: null };
    case 'charge.dispute.created':
      return { ...base, amountCents: int(o.amount), paymentIntentId: idOf(o.payment_intent), customerId: null, subscriptionId: null };
    case 'customer.subscription.deleted':
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
      return { ...base, amountCents: 0, paymentIntentId: null, subscriptionId: base.objectId };
    case 'invoice.payment_failed':
      return {
        ...base,
        amountCents: int(o.amount_due),
        metadata: { ...metadataOf(subscriptionDetails(o)?.metadata), ...metadataOf(o.metadata) },
        subscriptionId: idOf(subscriptionDetails(o)?.subscription) ?? idOf(o.subscription),
        paymentIntentId: idOf(o.payment_intent),
        billingReason: str(o.billing_reason),
        failureMessage: null,
      };
  }
  return { type: 'ignored', eventId: event.id, providerType: event.type };
}

function subscriptionDetails(o: Record<string, unknown>): Record<string, unknown> | undefined {
  const parent = o.parent;
  if (!parent || typeof parent !== 'object') return undefined;
  const details = (parent as Record<string, unknown>).subscription_details;
  return details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** Expandable fields arrive as an id string or as the expanded object. */
function idOf(v: unknown): string | null {
  if (typeof v === 'string') return v || null;
  if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string') return (v as { id: string }).id;
  return null;
}

function int(v: unknown): number {
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : 0;
}

function metadataOf(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}
