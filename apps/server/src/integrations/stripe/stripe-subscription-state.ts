import { normalizeSubscriptionStatus, type SubscriptionState } from './card-provider.js';

/**
 * A Stripe subscription object (retrieved with default_payment_method and latest_invoice expanded) as our
 * SubscriptionState. Typed loosely on purpose, like normalize-stripe-event.ts: since API 2025-03-31 the period lives
 * on the subscription's items, before it on the subscription itself; both are read.
 */
export function subscriptionStateOf(sub: unknown): SubscriptionState {
  const o = sub as Record<string, unknown>;
  const items = (o.items as { data?: Array<Record<string, unknown>> } | undefined)?.data ?? [];
  const periodEnd = seconds(items[0]?.current_period_end) ?? seconds(o.current_period_end);
  const status = normalizeSubscriptionStatus(typeof o.status === 'string' ? o.status : '');
  const invoice = o.latest_invoice && typeof o.latest_invoice === 'object' ? (o.latest_invoice as Record<string, unknown>) : null;
  const pm = o.default_payment_method && typeof o.default_payment_method === 'object' ? (o.default_payment_method as Record<string, unknown>) : null;
  const card = pm?.card && typeof pm.card === 'object' ? (pm.card as Record<string, unknown>) : null;
  return {
    id: String(o.id),
    status,
    cancelAtPeriodEnd: o.cancel_at_period_end === true,
    currentPeriodEnd: periodEnd,
    nextRetryAt: status === 'past_due' && invoice ? seconds(invoice.next_payment_attempt) : null,
    card: pm && card ? { paymentMethodId: String(pm.id), brand: String(card.brand ?? ''), last4: String(card.last4 ?? '') } : null,
    canceledAt: status === 'canceled' ? seconds(o.ended_at) ?? seconds(o.canceled_at) : null,
  };
}

function seconds(v: unknown): Date | null {
  return typeof v === 'number' && Number.isFinite(v) ? new Date(v * 1000) : null;
}
