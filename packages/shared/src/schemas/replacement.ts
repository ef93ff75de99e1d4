import * as z from 'zod/mini';
import { text } from './text.js';

const isoDate = text();

// Replacement of a port's modem (issue 15, item 6): POST /api/v1/modems/:id/replacement from Your Proxies, and the
// automatic move of a port whose modem has been offline too long. The port keeps its login, password, whitelist,
// rotation settings and term; moved within its host it keeps its host and ports too (decision 036), else it is served
// on the new modem's. Nothing is charged.

export const REPLACEMENT_LIMITS = {
  /** A customer may ask for a new modem for a port once in this many hours. */
  customerRequestHours: 24,
  /** The console's "replace after" setting, in minutes (fractions allowed, for tests). */
  afterMinutesDefault: 10,
  afterMinutesMin: 0.05,
  afterMinutesMax: 1440,
} as const;

/**
 * What happened: 'moved' — the port is on another modem now (the list shows its host, ports and IP);
 * 'queued' — no modem of the same country, carrier and region is free, and the port moves as soon as one is.
 */
export const replacementResponseSchema = z.object({
  status: z.enum(['moved', 'queued']),
  /** The port's modem now (unchanged while queued). */
  IMEI: text(),
  /** When the customer may ask again for this port. */
  nextRequestAt: isoDate,
  /** Moved to a modem of the same host, keeping the host and ports (decision 036); absent from older servers. */
  addressKept: z.optional(z.boolean()),
});
export type ReplacementResponse = z.infer<typeof replacementResponseSchema>;

/**
 * 429 body. REPLACEMENT_TOO_SOON: when the customer may ask again, as a time, in whole hours and in seconds from now.
 * The request rate limiter's own 429 (too many requests a minute) carries retryAfter only.
 */
export const replacementTooSoonSchema = z.object({
  error: z.string(), code: z.string(), retryAfter: z.number(), retryAt: z.optional(isoDate), hours: z.optional(z.number()),
});
