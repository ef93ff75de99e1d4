import * as z from 'zod/mini';
import type { REALTIME_EVENT_NAMES } from '../constants.js';
import { text } from './text.js';
import { accountResponseSchema, APPLY_STATUSES, paymentSchema, tariffSchema } from './catalog.js';
import { notificationSchema } from './notifications.js';
import { cryptoPaymentSchema, pendingPaymentSchema } from './payments.js';
import { supportTicketEventSchema } from './support.js';

// Realtime (spec §4, §6; issue 5): GET /api/v1/token, then socket.io at /socket.io with that token.

/** socket.io path on the same origin. */
export const REALTIME_PATH = '/socket.io';
/** The connect_error message for a missing, forged or expired token. */
export const REALTIME_INVALID_TOKEN = 'invalid_token';
/** The connect_error message when the account or the client address already holds as many sockets as allowed. */
export const REALTIME_TOO_MANY_CONNECTIONS = 'too_many_connections';
/** Lifetime of a realtime token. */
export const REALTIME_TOKEN_TTL_SECONDS = 300;

export const realtimeTokenResponseSchema = z.object({ token: text() });
export type RealtimeTokenResponse = z.infer<typeof realtimeTokenResponseSchema>;

/** 'modem': ext_ip is omitted when it did not change (the client keeps the old one). */
export const modemEventSchema = z.object({
  IMEI: text(),
  applyStatus: z.enum(APPLY_STATUSES),
  ext_ip: z.optional(text()),
});
export type ModemEvent = z.infer<typeof modemEventSchema>;

export const REALTIME_ACTIONS = ['add', 'update', 'cancel'] as const;
export type PendingAction = (typeof REALTIME_ACTIONS)[number];
export const TARIFF_ACTIONS = ['update', 'delete'] as const;

/**
 * Server → client events (socket.io, room user:<id>; 'tariff' goes to everyone): each payload is what the matching
 * client store slice holds, in the shape of the API's own answers (GET /modems, /payments, /pending-payments,
 * /account, /tariffs; 'support_ticket': GET /support/tickets). 'modem' leaves out ext_ip when the address did not change; 'tariff' carries the tariff's id
 * and the fields it has.
 */
export const realtimeEvents = {
  modem: modemEventSchema,
  notification: notificationSchema,
  payment: paymentSchema,
  pending_payment: z.object({ action: z.enum(REALTIME_ACTIONS), payment: pendingPaymentSchema }),
  pending_crypto_payment: z.object({ action: z.enum(REALTIME_ACTIONS), payment: cryptoPaymentSchema }),
  balance: accountResponseSchema,
  tariff: z.object({
    action: z.enum(TARIFF_ACTIONS),
    tariff: z.extend(z.partial(tariffSchema), { _id: tariffSchema.shape._id }),
  }),
  /** Support tickets (issue 17): an operator replied or changed the state of one of the customer's tickets. */
  support_ticket: supportTicketEventSchema,
} as const satisfies Record<RealtimeEventName, z.core.$ZodType>;
export type RealtimeEventName = (typeof REALTIME_EVENT_NAMES)[number];
/** The payload of each event, by name. */
export type RealtimeEvents = { [K in RealtimeEventName]: z.infer<(typeof realtimeEvents)[K]> };
