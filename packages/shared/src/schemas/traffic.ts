import * as z from 'zod/mini';
import { QUOTA_STATES, tariffLimitsSchema } from './port-limits.js';
import { text } from './text.js';
import { TRAFFIC_GRANULARITIES } from './traffic-constants.js';

// Traffic (issue 5): proxy hosts report bytes per port and interval over the host protocol (host-protocol.ts, the
// only way in); customers read them per port. Byte counts travel as decimal strings (they exceed 2^53 over time).

export * from './traffic-constants.js';

const isoDate = z.iso.datetime({ offset: true });

export const trafficQuerySchema = z.object({
  from: isoDate,
  to: isoDate,
  granularity: z._default(z.enum(TRAFFIC_GRANULARITIES), 'hour'),
  port_id: z.optional(z.uuid()),
});
export type TrafficQuery = z.input<typeof trafficQuerySchema>;

export const trafficRowSchema = z.object({
  port_id: text(),
  modem_name: text(),
  /** Start of the hour or day, ISO-8601 UTC. */
  bucket: text(),
  bytesIn: text(),
  bytesOut: text(),
});
export type TrafficRow = z.infer<typeof trafficRowSchema>;
export const trafficTotalsSchema = z.object({ bytesIn: text(), bytesOut: text() });
export const trafficResponseSchema = z.object({ data: z.array(trafficRowSchema), totals: trafficTotalsSchema });
export type TrafficResponse = z.infer<typeof trafficResponseSchema>;

// ---- GET /api/v1/traffic/quota: each port's traffic this month against its quota (issue 18, item 3) -------------

export const portQuotaSchema = z.object({
  port_id: text(),
  modem_name: text(),
  /** The port's limits, from its tariff. */
  limits: tariffLimitsSchema,
  /** The calendar month (UTC) counted: its first moment, and the next month's, when the quota starts again. */
  monthStart: text(),
  resetsAt: text(),
  /** Bytes both ways this month, a decimal string. */
  bytes: text(),
  /** The quota in bytes; null: none. */
  quotaBytes: z.nullable(text()),
  state: z.enum(QUOTA_STATES),
});
export type PortQuota = z.infer<typeof portQuotaSchema>;
export const trafficQuotaResponseSchema = z.object({ data: z.array(portQuotaSchema) });
export type TrafficQuotaResponse = z.infer<typeof trafficQuotaResponseSchema>;
