// Customer webhooks' event types and limits (issue 16): plain values, no zod. webhooks.ts builds its schemas from
// them and re-exports them; the Account page imports them from here and loads neither the schemas nor zod (issue 31,
// item 4).

export const WEBHOOK_EVENT_TYPES = [
  'port.bought', 'port.renewed', 'port.expiring_soon', 'port.expired', 'port.rotated', 'port.rotation_failed',
  'modem.down', 'modem.up', 'payment.completed', 'balance.low',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What "Send test event" sends; every endpoint receives it whatever it subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_ENDPOINTS_PER_CUSTOMER_MAX = 10;
/** Deliveries are retried with exponential backoff for this long; then the endpoint is disabled. */
export const WEBHOOK_RETRY_WINDOW_HOURS = 72;
export const WEBHOOK_LOG_LIMIT = 50;
