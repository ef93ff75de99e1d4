import type { Payment } from '@cellport/shared/schemas/catalog';
import type { PaymentRow } from './purchases.repository.js';

/** A coupon row in the shape `couponDiscount` takes. */
export const couponToShape = (c: { type: 'percent' | 'fixed'; percent: number | null; amount: bigint | null }) =>
  (c.type === 'percent' ? { type: 'percent' as const, percent: c.percent ?? 0 } : { type: 'fixed' as const, amount: String(c.amount ?? 0n) });

/** A payment as the API shows it (spec §3 Payment). */
export function toApiPayment(p: PaymentRow, ports: Payment['ports']): Payment {
  return {
    _id: p.id, provider: p.provider, kind: p.kind, status: p.status, amount: p.amount.toString(), currency: 'USD' as const,
    coupon: p.coupon, discount: p.discount.toString(), description: p.description, modemCount: p.modem_count,
    createdAt: p.created_at.toISOString(), ports,
  };
}
