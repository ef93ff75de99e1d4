import * as z from 'zod/mini';
import { text } from '../text.js';
import { moneySchema } from '../catalog.js';
import { legalAcceptanceSchema } from '../legal.js';
import {
  bigintId, coinSchema, isoDate, pageOf, pageQueryFields, reasonSchema, searchField, signedMoneySchema, uuid,
} from './common.js';

// Operator console, Customers; also the port, payment and ledger shapes that ports.ts and payments.ts reuse.
// Conventions and building blocks: common.ts.

// ---- customers ----------------------------------------------------------------------------------------------------

/** GET /admin/customers?q=&page=&pageSize= — q matches e-mail, name or company (case-insensitive, part of it). */
export const customersQuerySchema = z.object({ q: searchField, ...pageQueryFields });
export const balancesSchema = z.object({ btc: moneySchema, usdt: moneySchema });
export const customerSummarySchema = z.object({
  id: uuid,
  email: text(),
  name: text(),
  companyName: text(),
  role: z.enum(['customer', 'admin']),
  balances: balancesSchema,
  /** Ports not released (active or expired within grace). */
  portsCount: z.number(),
  isActive: z.boolean(),
  isVerified: z.boolean(),
  uses2fa: z.boolean(),
  createdAt: isoDate,
});
export const customersResponseSchema = pageOf(customerSummarySchema);
export type CustomersQuery = z.infer<typeof customersQuerySchema>;
export type CustomerSummary = z.infer<typeof customerSummarySchema>;
export type CustomersResponse = z.infer<typeof customersResponseSchema>;

export const adminPortSchema = z.object({
  id: uuid,
  name: text(),
  status: z.enum(['active', 'expired', 'released']),
  modemId: uuid,
  imei: text(),
  extIp: text(),
  tariffId: uuid,
  isShared: z.boolean(),
  proxyLogin: text(),
  expiresAt: isoDate,
  autoRenew: z.boolean(),
  createdAt: isoDate,
  /** Set while an operator has suspended the port (abuse handling): it refuses connections. */
  suspendedAt: z.nullable(isoDate),
});
export const ledgerEntrySchema = z.object({
  id: bigintId,
  coin: coinSchema,
  /** Signed minor units: credits positive, debits negative. */
  amount: text(),
  kind: text(),
  reference: text(),
  paymentId: z.nullable(uuid),
  createdAt: isoDate,
});
export const customerSessionSchema = z.object({
  /** The first 12 characters of the stored hash: enough to tell sessions apart, useless as a credential. */
  id: text(),
  ip: text(),
  userAgent: text(),
  createdAt: isoDate,
  lastSeenAt: isoDate,
  expiresAt: isoDate,
});
export const customerNotificationSchema = z.object({
  id: uuid, type: text(), text: text(), unread: z.boolean(), createdAt: isoDate,
});
export const adminPaymentSchema = z.object({
  id: uuid,
  userId: uuid,
  email: text(),
  provider: text(),
  kind: text(),
  status: text(),
  /** What was charged, after the discount. */
  amount: moneySchema,
  discount: moneySchema,
  currency: text(),
  coupon: z.nullable(text()),
  description: text(),
  modemCount: z.number(),
  tariffId: z.nullable(uuid),
  /** Minor units refunded so far ("0" when none). */
  refunded: moneySchema,
  createdAt: isoDate,
});
/** GET /admin/customers/:id — the newest 100 of each list. */
export const customerDetailResponseSchema = z.object({
  customer: z.extend(customerSummarySchema, {
    language: text(),
    purpose: text(),
    websiteWishlist: text(),
    marketingConsent: z.boolean(),
  }),
  /** The Terms of Service and Refund Policy versions accepted at sign-up (none for accounts older than them). */
  legalAcceptances: z.array(legalAcceptanceSchema),
  ports: z.array(adminPortSchema),
  payments: z.array(adminPaymentSchema),
  ledger: z.array(ledgerEntrySchema),
  sessions: z.array(customerSessionSchema),
  notifications: z.array(customerNotificationSchema),
});
export type AdminPort = z.infer<typeof adminPortSchema>;
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export type CustomerSession = z.infer<typeof customerSessionSchema>;
export type CustomerNotification = z.infer<typeof customerNotificationSchema>;
export type CustomerDetailResponse = z.infer<typeof customerDetailResponseSchema>;

/** POST /admin/customers/:id/deactivate and /reactivate answer the updated summary. */
export const customerResponseSchema = z.object({ customer: customerSummarySchema });
export type CustomerResponse = z.infer<typeof customerResponseSchema>;
/** Body of deactivate/reactivate/reset-2fa/resend-confirmation: an optional note kept in the audit log. */
export const customerActionRequestSchema = z.optional(z.nullable(z.object({ reason: z.optional(reasonSchema) })));

/** POST /admin/customers/:id/balance-adjustments — a debit never takes the balance below zero. */
export const balanceAdjustmentRequestSchema = z.object({
  coin: coinSchema,
  amount: signedMoneySchema,
  reason: reasonSchema,
});
export const balanceAdjustmentResponseSchema = z.object({ entry: ledgerEntrySchema, balance: moneySchema });
export type BalanceAdjustmentRequest = z.input<typeof balanceAdjustmentRequestSchema>;
export type BalanceAdjustmentResponse = z.infer<typeof balanceAdjustmentResponseSchema>;
