import * as z from 'zod/mini';
import { text } from './text.js';

// GET /api/v1/modems/:id/history (issue 27, item 9): a port's uptime from its modem's health checks, and the IPs it
// sent from, newest first.

/** The windows uptime is measured over, and their length in hours. */
export const UPTIME_WINDOWS = { day: 24, week: 24 * 7, month: 24 * 30 } as const;
export type UptimeWindow = keyof typeof UPTIME_WINDOWS;
/** How many past IPs the history lists. */
export const PORT_HISTORY_IPS = 10;

const uptimeSchema = z.object({
  /** The share of the window the port's modem was not offline, 0…1. */
  ratio: z.number(),
  /** Where the window starts: the window's length ago, or later when the port (or its current modem) is younger. */
  from: text(),
});
export const portHistoryResponseSchema = z.object({
  uptime: z.object({ day: uptimeSchema, week: uptimeSchema, month: uptimeSchema }),
  /** The IPs the port sent from, newest first: each from when it was taken (a rotation or a reconnect). */
  ips: z.array(z.object({ ip: text(), at: text() })),
});
export type PortHistory = z.infer<typeof portHistoryResponseSchema>;
