import * as z from 'zod/mini';
import { text } from './text.js';
import { APPLY_STATUSES } from './catalog.js';
import { notificationSchema } from './notifications.js';

// Realtime (spec §4, §6; issue 5): GET /api/v1/token, then socket.io at /socket.io with that token.

/** socket.io path on the same origin. */
export const REALTIME_PATH = '/socket.io';
/** The connect_error message for a missing, forged or expired token. */
export const REALTIME_INVALID_TOKEN = 'invalid_token';
/** Lifetime of a realtime token. */
export const REALTIME_TOKEN_TTL_SECONDS = 300;

export const realtimeTokenResponseSchema = z.object({ token: text() });

/** 'modem': ext_ip is omitted when it did not change (the client keeps the old one). */
export const modemEventSchema = z.object({
  IMEI: text(),
  applyStatus: z.enum(APPLY_STATUSES),
  ext_ip: z.optional(text()),
});
export type ModemEvent = z.infer<typeof modemEventSchema>;

export const REALTIME_ACTIONS = ['add', 'update', 'cancel'] as const;
export const TARIFF_ACTIONS = ['update', 'delete'] as const;

/** Server → client event names and payloads. Payment-shaped payloads follow the payments schemas. */
export const realtimeEvents = {
  modem: modemEventSchema,
  notification: notificationSchema,
  payment: z.record(text(), z.unknown()),
  pending_payment: z.object({ action: z.enum(REALTIME_ACTIONS), payment: z.record(text(), z.unknown()) }),
  pending_crypto_payment: z.object({ action: z.enum(REALTIME_ACTIONS), payment: z.record(text(), z.unknown()) }),
  balance: z.object({
    btc: z.object({ balance: text(), address: z.nullable(text()) }),
    usdt: z.object({ balance: text(), address: z.nullable(text()) }),
  }),
  tariff: z.object({ action: z.enum(TARIFF_ACTIONS), tariff: z.record(text(), z.unknown()) }),
} as const;
export type RealtimeEventName = keyof typeof realtimeEvents;
