import * as z from 'zod/mini';
import { LIMITS_MESSAGES, OVER_QUOTA_ACTIONS, PORT_LIMITS, type QuotaState } from './port-limits-constants.js';

// Per-port limits, set per tariff (issue 18, item 3; docs/decisions/030-per-port-limits.md). Every port of a tariff
// gets its bandwidth cap (each direction), its concurrent-connection limit and its monthly traffic quota; past the
// quota the port is throttled or blocked until the next calendar month (UTC) starts.

export * from './port-limits-constants.js';

/** A tariff's limits as every answer shows them. */
export const tariffLimitsSchema = z.object({
  /** Each direction's cap per port in Mbit/s; null: none. */
  bandwidthMbps: z.nullable(z.number()),
  /** Concurrent connections per port, HTTP and SOCKS5 together. */
  maxConnections: z.number(),
  /** Traffic per port per calendar month (UTC), both directions, in GB (10^9 bytes); null: none. */
  monthlyQuotaGb: z.nullable(z.number()),
  /** Past the quota: throttled to overQuotaMbps, or blocked, until the month ends. */
  overQuota: z.enum(OVER_QUOTA_ACTIONS),
  overQuotaMbps: z.nullable(z.number()),
});
export type TariffLimits = z.infer<typeof tariffLimitsSchema>;

const wholeIn = (max: number, message: string) =>
  z.number({ error: message }).check(z.int({ error: message }), z.minimum(1, { error: message }), z.maximum(max, { error: message }));

/** The operator's limits of a tariff (POST and PATCH /admin/tariffs): missing fields keep their value or default. */
export const tariffLimitsRequestSchema = z.object({
  bandwidthMbps: z.optional(z.nullable(wholeIn(PORT_LIMITS.maxMbps, LIMITS_MESSAGES.mbps))),
  maxConnections: z.optional(wholeIn(PORT_LIMITS.maxConnections, LIMITS_MESSAGES.connections)),
  monthlyQuotaGb: z.optional(z.nullable(wholeIn(PORT_LIMITS.maxQuotaGb, LIMITS_MESSAGES.quota))),
  overQuota: z.optional(z.enum(OVER_QUOTA_ACTIONS, { error: LIMITS_MESSAGES.overQuota })),
  overQuotaMbps: z.optional(z.nullable(wholeIn(PORT_LIMITS.maxMbps, LIMITS_MESSAGES.mbps))),
}).check(z.refine((v) => v.overQuota !== 'throttle' || (v.overQuotaMbps !== undefined && v.overQuotaMbps !== null), {
  message: LIMITS_MESSAGES.throttle, path: ['overQuotaMbps'],
}));
export type TariffLimitsRequest = z.input<typeof tariffLimitsRequestSchema>;

/** The limits of a tariff that says nothing: no cap, the default connection limit, no quota. */
export const NO_LIMITS: TariffLimits = {
  bandwidthMbps: null, maxConnections: PORT_LIMITS.defaultMaxConnections, monthlyQuotaGb: null, overQuota: 'block', overQuotaMbps: null,
};

/** The first moment of the calendar month (UTC) that `at` falls in, and of the next one (when a quota resets). */
export function quotaMonth(at: Date): { start: Date; next: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, next };
}

/** Where `bytes` this month leave a port of these limits. */
export function quotaState(limits: Pick<TariffLimits, 'monthlyQuotaGb' | 'overQuota'>, bytes: bigint): QuotaState {
  if (limits.monthlyQuotaGb === null) return 'ok';
  if (bytes < BigInt(limits.monthlyQuotaGb) * BigInt(PORT_LIMITS.bytesPerGb)) return 'ok';
  return limits.overQuota === 'throttle' ? 'throttled' : 'blocked';
}
