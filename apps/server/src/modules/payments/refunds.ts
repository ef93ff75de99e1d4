import type { Refund } from '@cellport/shared/schemas/admin/payments';
import type { RefundRow } from './payments-admin.repository.js';

export const toRefund = (r: RefundRow): Refund => ({
  id: r.id, paymentId: r.payment_id, amount: BigInt(r.amount).toString(), method: r.method, providerRef: r.provider_ref,
  reason: r.reason, adminId: r.admin_id, createdAt: r.created_at.toISOString(),
});

/** Micro-USD per cent: card providers refund whole cents. */
export const MICRO_PER_CENT = 10_000n;
