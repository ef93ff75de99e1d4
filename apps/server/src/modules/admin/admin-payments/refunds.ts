import type { Refund } from '@cellport/shared/schemas/admin/payments';
import type { PaymentRefundsTable } from '../../../db/tables/admin.js';

type RefundRow = Omit<PaymentRefundsTable, 'id' | 'created_at'> & { id: string; created_at: Date };
export const toRefund = (r: RefundRow): Refund => ({
  id: r.id, paymentId: r.payment_id, amount: BigInt(r.amount).toString(), method: r.method, providerRef: r.provider_ref,
  reason: r.reason, adminId: r.admin_id, createdAt: r.created_at.toISOString(),
});

/** Micro-USD per cent: card providers refund whole cents. */
export const MICRO_PER_CENT = 10_000n;
