import * as z from 'zod/mini';
import { OPERATOR_ALERT_KEYS } from './admin/alerts.js';
import { text } from './text.js';

// Telegram (issue 16, item 2): a customer links a chat with the operator's bot through a one-time deep link
// (https://t.me/<bot>?start=<token>) and chooses which notifications go there.

/** The notification keys (locales/<lng>/notifications.json) a customer can send to Telegram. */
export const TELEGRAM_NOTIFICATION_KINDS = [
  'expiry_reminder_3d', 'expiry_reminder_1d', 'port_expired', 'port_released', 'auto_renew_short_balance',
  'auto_renew_completed', 'modem_down', 'modem_up', 'port_replaced_offline', 'port_replaced', 'port_replacement_queued',
  'rotation_failed', 'payment_received', 'purchase_completed', 'renewal_completed', 'payment_unfulfilled', 'webhook_disabled', 'operator_message',
  'quota_warning', 'quota_reached', 'support_reply',
  'subscription_charge_upcoming', 'subscription_charge_failed', 'subscription_ended',
] as const;
export type TelegramNotificationKind = (typeof TELEGRAM_NOTIFICATION_KINDS)[number];
/**
 * Support alerts meant for operators (issue 17 item 4), and the farm's alerts (issue 28 item 8, as each operator
 * chose in the console): an operator's linked chat gets them whatever its kinds say
 * (the database trigger of migrations 2026_12_09_0100_support_tickets and 0200_support_assigned agrees); they are no customer's to choose.
 */
export const TELEGRAM_OPERATOR_KINDS = ['support_ticket_new', 'support_customer_reply', 'support_assigned', ...OPERATOR_ALERT_KEYS] as const;
/** What a newly linked chat receives until the customer chooses. */
export const TELEGRAM_DEFAULT_KINDS: readonly TelegramNotificationKind[] = [
  'expiry_reminder_3d', 'expiry_reminder_1d', 'port_expired', 'auto_renew_short_balance', 'modem_down', 'modem_up',
  'port_replaced_offline', 'port_replacement_queued', 'rotation_failed', 'payment_received', 'operator_message',
  'quota_warning', 'quota_reached', 'support_reply', 'subscription_charge_failed', 'subscription_ended',
];
/** How long a link (its /start token) stays usable. */
export const TELEGRAM_LINK_TTL_MINUTES = 15;

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
