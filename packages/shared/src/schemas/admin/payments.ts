import * as z from 'zod/mini';
import { text } from '../text.js';
import { moneySchema } from '../catalog.js';
import { isoDate, pageOf, pageQueryFields, positiveMoneySchema, reasonSchema, searchField, uuid } from './common.js';
import { adminPaymentSchema, ledgerEntrySchema } from './customers.js';

// Operator console, Payments. Conventions and building blocks: common.ts.

// ---- payments -----------------------------------------------------------------------------------------------------

/** GET /admin/payments?provider=&status=&kind=&q=&from=&to=&page= — q: e-mail, payment id, description or coupon. */
export const adminPaymentsQuerySchema = z.object({
  provider: z.optional(text().check(z.maxLength(20))),
  status: z.optional(text().check(z.maxLength(20))),
  kind: z.optional(text().check(z.maxLength(20))),
  userId: z.optional(uuid),
  q: searchField,
  from: z.optional(z.iso.date()),
  to: z.optional(z.iso.date()),
  ...pageQueryFields,
});
export const adminPaymentsResponseSchema = pageOf(adminPaymentSchema);
export const refundSchema = z.object({
  id: uuid,
  paymentId: uuid,
  amount: moneySchema,
  /** 'provider': refunded through the card provider; 'manual': the operator sends it back by hand (PayPal, crypto);
   * 'balance': returned to the customer's balance. */
  method: z.enum(['provider', 'manual', 'balance']),
  providerRef: z.nullable(text()),
  reason: text(),
  adminId: uuid,
  createdAt: isoDate,
});
/** GET /admin/payments/:id */
export const adminPaymentDetailResponseSchema = z.object({
  payment: adminPaymentSchema,
  /** Provider-side fields the payments module keeps (ids, addresses, txids…); never secrets. */
  details: z.record(text(), z.unknown()),
  ledger: z.array(ledgerEntrySchema),
  refunds: z.array(refundSchema),
  ports: z.array(z.object({ id: uuid, name: text() })),
});
/**
 * POST /admin/payments/:id/refund — only completed payments, once each. amount defaults to the whole payment.
 * `to`: 'source' sends it back where it came from (card: through the provider; PayPal and crypto: recorded as a
 * manual refund the operator makes), 'balance' credits the customer's balance. Default: 'balance' for payments
 * made from the balance, 'source' otherwise. Always booked as ledger entries.
 */
export const refundRequestSchema = z.object({
  amount: z.optional(positiveMoneySchema),
  reason: reasonSchema,
  to: z.optional(z.enum(['source', 'balance'])),
});
export const refundResponseSchema = z.object({ refund: refundSchema, payment: adminPaymentSchema });
/** POST /admin/payments/:id/complete — completes a stuck pending payment as if the provider had confirmed it. */
export const completePaymentRequestSchema = z.object({ reason: reasonSchema });
export const completePaymentResponseSchema = z.object({ payment: adminPaymentSchema });
export type AdminPayment = z.infer<typeof adminPaymentSchema>;
export type AdminPaymentsQuery = z.infer<typeof adminPaymentsQuerySchema>;
export type AdminPaymentsResponse = z.infer<typeof adminPaymentsResponseSchema>;
export type Refund = z.infer<typeof refundSchema>;
export type AdminPaymentDetailResponse = z.infer<typeof adminPaymentDetailResponseSchema>;
export type RefundRequest = z.input<typeof refundRequestSchema>;
export type RefundResponse = z.infer<typeof refundResponseSchema>;
export type CompletePaymentRequest = z.input<typeof completePaymentRequestSchema>;
export type CompletePaymentResponse = z.infer<typeof completePaymentResponseSchema>;
