import { OPERATOR_ALERT_KEYS } from '@cellport/shared/schemas/admin/alerts';

/**
 * What notifies (issue 14, item 5). Payment items (type 'payment': purchase, renewal, auto-renewal, payment received
 * or not fulfilled) are listed on the dashboard and left out of the bell (spec §7). The bell ('other') tells what
 * happens to a port without the customer asking: expiring in 3 days and tomorrow, expired, released, its modem
 * offline and back (modemAvailability), an IP change that failed, and operator messages. A rotation that worked does
 * not notify: the customer who asked sees the new IP at once, and interval rotations every few minutes would bury
 * everything else.
 *
 * Service messages — what happens to the customer's ports, money and integrations — are e-mailed always, without an
 * unsubscribe link: the marketing consent at sign-up is about news, not about the service bought (issue 28,
 * item 10; decision 036). Only the operators' own messages are news, mailed with the consent. A failed IP change is
 * told in the bell only: the customer who asked sees it at once, and a mail would come after they retried.
 */
export const MUST_MAIL_KEYS = new Set<string>([
  // Payments and renewals.
  'payment_received', 'payment_unfulfilled', 'purchase_completed', 'renewal_completed', 'auto_renew_completed',
  'auto_renew_short_balance',
  // Expiry.
  'expiry_reminder_3d', 'expiry_reminder_1d', 'port_expired', 'port_released',
  // The port's service: its modem down and back, replaced or waiting for one, its traffic allowance.
  'modem_down', 'modem_up', 'port_replaced', 'port_replaced_offline', 'port_replacement_queued', 'quota_warning', 'quota_reached',
  // The customer's webhook endpoint turned off.
  'webhook_disabled',
  // Support (issue 17 item 4): an answer the customer asked for, and operators' alerts of a customer waiting
  // (also the ticket another operator handed them).
  'support_reply', 'support_ticket_new', 'support_customer_reply', 'support_assigned',
  // Card subscriptions (issue 27 item 1): what the card will be charged and when, a charge that failed, the end.
  'subscription_charge_upcoming', 'subscription_charge_failed', 'subscription_ended',
]);
/** Told in the bell (and Telegram, by the customer's choice), never e-mailed. */
const BELL_ONLY_KEYS = new Set<string>(['rotation_failed']);
/** Service mail: sent without asking for the marketing consent and without an unsubscribe link (the operators' alerts are mailed as each operator chose). */
export const isServiceMail = (key: string) => MUST_MAIL_KEYS.has(key) || (OPERATOR_ALERT_KEYS as readonly string[]).includes(key);
/** Whether a customer's notification is e-mailed: service mail always, news only with the marketing consent. */
export const mailsTo = (key: string, recipient: { marketing_consent: boolean }) =>
  !BELL_ONLY_KEYS.has(key) && (isServiceMail(key) || recipient.marketing_consent);
