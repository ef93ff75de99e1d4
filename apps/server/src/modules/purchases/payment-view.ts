import type { Language } from '@cellport/shared';
import type { Payment } from '@cellport/shared/schemas/catalog';
import { portName, renderStored } from '../notifications/index.js';
import type { PaidPort, PaymentRow } from './purchases.repository.js';

/** A coupon row in the shape `couponDiscount` takes. */
export const couponToShape = (c: { type: 'percent' | 'fixed'; percent: number | null; amount: bigint | null }) =>
  (c.type === 'percent' ? { type: 'percent' as const, percent: c.percent ?? 0 } : { type: 'fixed' as const, amount: String(c.amount ?? 0n) });

/**
 * A payment as the API shows it (spec §3 Payment), its description in the reader's `language` (issue 14, item 3);
 * without one, or for a payment with no stored text, the description as the buyer's language wrote it.
 */
export function toApiPayment(p: PaymentRow, paidPorts: PaidPort[], language?: Language): Payment {
  const ports = paidPorts.map((port) => ({ _id: port._id, modem_name: language ? portName(port, language) : port.name }));
  return {
    _id: p.id, provider: p.provider, kind: p.kind, status: p.status, amount: p.amount.toString(), currency: 'USD' as const,
    coupon: p.coupon, discount: p.discount.toString(), description: language ? renderStored(language, p.description_text, p.description) : p.description, modemCount: p.modem_count,
    createdAt: p.created_at.toISOString(), ports,
  };
}
