import type { Language } from '@cellport/shared';
import type { AdminSubscription, Subscription } from '@cellport/shared/schemas/subscriptions';
import { portName } from '../notifications/index.js';
import type { SubscriptionRow } from './subscriptions.repository.js';

/** A subscription row as the customer's API shows it, default port names in `lng`. */
export function toSubscription(r: SubscriptionRow, lng: Language = 'en'): Subscription {
  return {
    id: r.id,
    status: r.status,
    cancelAtPeriodEnd: r.cancel_at_period_end,
    amount: String(r.amount ?? 0n),
    currency: 'USD',
    intervalDays: r.interval_days,
    card: r.card_brand && r.card_last4 ? { brand: r.card_brand, last4: r.card_last4 } : null,
    ports: r.ports.map((p) => ({ id: p.id, name: portName(p, lng) })),
    currentPeriodEnd: r.current_period_end?.toISOString() ?? null,
    nextChargeAt: r.next_charge_at?.toISOString() ?? null,
    lastFailure: r.status === 'past_due' ? r.last_failure : null,
    canceledAt: r.canceled_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
  };
}

/** The console's: the same, with its customer. */
export const toAdminSubscription = (r: SubscriptionRow): AdminSubscription => ({ ...toSubscription(r), userId: r.user_id, email: r.email });
