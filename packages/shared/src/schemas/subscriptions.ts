import * as z from 'zod/mini';
import { text } from './text.js';
import { moneySchema } from './catalog.js';

// Card subscriptions (issue 27, item 1): a monthly port paid by card renews itself on the card's schedule. The
// customer sees each one (ports, amount, card, next charge, status) on Billing & Renewals and on the port card,
// cancels it at the period's end and resumes it before then, and changes its card; the console lists and ends them.
// Statuses follow Stripe's: `active`, `past_due` (the last charge failed; the card is retried), `canceled` (ended, no
// more charges), `incomplete` (the first payment has not gone through yet). `cancelAtPeriodEnd` is Stripe's flag: the
// subscription stays active, and charges nothing more, until `currentPeriodEnd`.

export const SUBSCRIPTION_STATUSES = ['incomplete', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Days before a charge that the customer is told by e-mail what will be charged and when. */
export const SUBSCRIPTION_REMINDER_DAYS = 3;

export const subscriptionCardSchema = z.object({ brand: text(), last4: text() });
export const subscriptionPortSchema = z.object({ id: text(), name: text() });

export const subscriptionSchema = z.object({
  id: text(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  cancelAtPeriodEnd: z.boolean(),
  /** Micro-USD per period, as a string ("49000000" = $49). */
  amount: moneySchema,
  currency: z.literal('USD'),
  /** Days a period lasts (the tariff's: 30 for a monthly port). */
  intervalDays: z.number(),
  card: z.nullable(subscriptionCardSchema),
  /** The ports each charge renews. */
  ports: z.array(subscriptionPortSchema),
  /** When the paid period ends (ISO-8601), null before the first payment. */
  currentPeriodEnd: z.nullable(text()),
  /** When the card is charged next: the period's end, a retry after a failed charge, or null (ending, ended). */
  nextChargeAt: z.nullable(text()),
  /** Why the last charge failed, in the card provider's words, while past_due. */
  lastFailure: z.nullable(text()),
  canceledAt: z.nullable(text()),
  createdAt: text(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** GET /api/v1/subscriptions: the customer's subscriptions, live ones first. */
export const subscriptionsResponseSchema = z.object({ data: z.array(subscriptionSchema) });
export const subscriptionParamsSchema = z.object({ id: text().check(z.minLength(1), z.maxLength(255)) });
/** POST /api/v1/subscriptions/:id/cancel, /resume, /card: the subscription as it is now. */
export const subscriptionResponseSchema = z.object({ data: subscriptionSchema });
/** POST /api/v1/subscriptions/:id/card: charge this saved card from now on. */
export const subscriptionCardRequestSchema = z.object({ paymentMethodId: text().check(z.minLength(1), z.maxLength(255)) });

// ---- console: GET /api/v1/admin/subscriptions, POST /api/v1/admin/subscriptions/:id/cancel ---------------------------

export const adminSubscriptionSchema = z.extend(subscriptionSchema, { userId: text(), email: text() });
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;
export const adminSubscriptionsQuerySchema = z.object({
  userId: z.optional(z.uuid()),
  status: z.optional(z.enum(SUBSCRIPTION_STATUSES)),
});
export const adminSubscriptionsResponseSchema = z.object({ items: z.array(adminSubscriptionSchema) });
/**
 * The console ends a subscription at once (no more charges; the ports keep the time already paid for), or at the
 * period's end like the customer's own cancel. The reason goes to the audit log.
 */
export const adminSubscriptionCancelSchema = z.object({
  reason: text().check(z.minLength(3), z.maxLength(500)),
  when: z.optional(z.enum(['now', 'period_end'])),
});
export const adminSubscriptionResponseSchema = z.object({ subscription: adminSubscriptionSchema });
