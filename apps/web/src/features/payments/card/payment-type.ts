import type { PaymentOrder } from '../flow/payment-order';

export type CardPaymentType = 'one-time' | 'subscribe';

/**
 * Spec §4, card payment type: a subscription is offered only for a purchase whose tariff period is month and
 * whose tariff has recurring enabled; everything else (top-ups, renewals, other tariffs) is one-time only.
 */
export function subscriptionOffered(order: PaymentOrder): boolean {
  return order.kind === 'purchase' && order.tariff.period === 'month' && order.tariff.recurring;
}

/** The tariff the type belongs to: when it changes, the type resets to one-time (spec §4). */
export const typeKey = (order: PaymentOrder): string => (order.kind === 'purchase' ? order.tariff._id : order.kind);
