import * as z from 'zod/mini';
import { text } from './text.js';

// GET /api/v1/modems/:id/history (issue 27, item 9): a port's uptime from its modem's health checks, and the IPs it
// sent from, newest first.

export * from './port-history-windows.js';

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
