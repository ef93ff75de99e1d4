import * as z from 'zod/mini';
import { OPERATOR_ALERT_KEYS } from './admin/alerts.js';
import { text } from './text.js';
import { TELEGRAM_NOTIFICATION_KINDS } from './telegram-constants.js';

// Telegram (issue 16, item 2): a customer links a chat with the operator's bot through a one-time deep link
// (https://t.me/<bot>?start=<token>) and chooses which notifications go there.

export * from './telegram-constants.js';

/**
 * Support alerts meant for operators (issue 17 item 4), and the farm's alerts (issue 28 item 8, as each operator
 * chose in the console): an operator's linked chat gets them whatever its kinds say
 * (the database trigger of migrations 2026_12_09_0100_support_tickets and 0200_support_assigned agrees); they are no customer's to choose.
 */
export const TELEGRAM_OPERATOR_KINDS = ['support_ticket_new', 'support_customer_reply', 'support_assigned', ...OPERATOR_ALERT_KEYS] as const;

/** GET /api/v1/telegram */
export const telegramStatusSchema = z.object({
  /** The bot works: a token is configured (console or TELEGRAM_BOT_TOKEN), or the offline sandbox outside production. */
  available: z.boolean(),
  /** The offline sandbox: messages go to the server's log, no Telegram is reached. */
  sandbox: z.boolean(),
  botUsername: z.nullable(text()),
  linked: z.boolean(),
  /** The linked chat's name (the Telegram user's name or @username), or null. */
  chatName: z.nullable(text()),
  linkedAt: z.nullable(text()),
  /** The notification keys that go to Telegram. */
  kinds: z.array(text()),
});
export type TelegramStatus = z.infer<typeof telegramStatusSchema>;

/** POST /api/v1/telegram/link → the deep link to open (its token is used once and expires). */
export const telegramLinkResponseSchema = z.object({ url: text(), expiresAt: text() });
export type TelegramLink = z.infer<typeof telegramLinkResponseSchema>;

/** PUT /api/v1/telegram/preferences */
export const telegramPreferencesRequestSchema = z.object({
  kinds: z.array(z.enum(TELEGRAM_NOTIFICATION_KINDS)).check(z.maxLength(TELEGRAM_NOTIFICATION_KINDS.length)),
});
export type TelegramPreferencesRequest = z.infer<typeof telegramPreferencesRequestSchema>;
