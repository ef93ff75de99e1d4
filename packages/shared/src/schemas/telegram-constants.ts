// What a customer chooses for Telegram (issue 16, item 2): the notification kinds, the defaults and how long a link
// lasts. Plain values, no zod: telegram.ts builds its schemas from them and re-exports them; the Account page imports
// them from here and loads neither the schemas nor zod (issue 31, item 4).

/** The notification keys (locales/<lng>/notifications.json) a customer can send to Telegram. */
export const TELEGRAM_NOTIFICATION_KINDS = [
  'expiry_reminder_3d', 'expiry_reminder_1d', 'port_expired', 'port_released', 'auto_renew_short_balance',
  'auto_renew_completed', 'modem_down', 'modem_up', 'port_replaced_offline', 'port_replaced', 'port_replacement_queued',
  'rotation_failed', 'payment_received', 'purchase_completed', 'renewal_completed', 'payment_unfulfilled', 'webhook_disabled', 'operator_message',
  'quota_warning', 'quota_reached', 'support_reply',
  'subscription_charge_upcoming', 'subscription_charge_failed', 'subscription_ended',
] as const;
export type TelegramNotificationKind = (typeof TELEGRAM_NOTIFICATION_KINDS)[number];
/** What a newly linked chat receives until the customer chooses. */
export const TELEGRAM_DEFAULT_KINDS: readonly TelegramNotificationKind[] = [
  'expiry_reminder_3d', 'expiry_reminder_1d', 'port_expired', 'auto_renew_short_balance', 'modem_down', 'modem_up',
  'port_replaced_offline', 'port_replacement_queued', 'rotation_failed', 'payment_received', 'operator_message',
  'quota_warning', 'quota_reached', 'support_reply', 'subscription_charge_failed', 'subscription_ended',
];
/** How long a link (its /start token) stays usable. */
export const TELEGRAM_LINK_TTL_MINUTES = 15;
