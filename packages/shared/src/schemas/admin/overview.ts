import * as z from 'zod/mini';
import { text } from '../text.js';
import { moneySchema } from '../catalog.js';
import { ADMIN_LIMITS, isoDate, uuid } from './common.js';

// Operator console, Overview. Conventions and building blocks: common.ts.

// ---- overview: GET /admin/overview?days=30 ------------------------------------------------------------------------

export const overviewQuerySchema = z.object({
  days: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_LIMITS.overviewDaysMax))),
});
export const overviewResponseSchema = z.object({
  days: z.number(),
  /**
   * Revenue is money received: completed payments by an outside provider (card, PayPal, crypto), top-ups and direct
   * payments, net of refunds. By UTC day, oldest first, every day present (zero days too); micro-USD.
   */
  revenueByDay: z.array(z.object({ date: text(), amount: moneySchema, count: z.number() })),
  /** By provider ('card', 'paypal', 'crypto'), largest first. */
  revenueByMethod: z.array(z.object({ provider: text(), amount: moneySchema, count: z.number() })),
  totalRevenue: moneySchema,
  /** Usage, not revenue: purchases and renewals paid from customers' balances in the period, net of refunds. */
  balanceSpending: z.object({ amount: moneySchema, count: z.number() }),
  activePorts: z.number(),
  /** Free port slots on online, non-retired modems that are not in maintenance. */
  freeStock: z.number(),
  /**
   * Modem replacement (issue 15, item 6): ports waiting for a free modem to move to, and modems in maintenance
   * (taken out of service after their ports moved off; an operator returns them from Inventory → Modems).
   */
  replacements: z.object({ queued: z.number(), maintenance: z.number() }),
  /** Active ports whose term ends within 7 days, soonest first (at most 100 listed; the count is exact). */
  expiringThisWeek: z.object({
    count: z.number(),
    items: z.array(z.object({
      id: uuid, name: text(), userId: uuid, email: text(), expiresAt: isoDate, autoRenew: z.boolean(),
    })),
  }),
  customers: z.object({ total: z.number(), newInPeriod: z.number() }),
});
export type OverviewQuery = z.infer<typeof overviewQuerySchema>;
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;
