import type { Language } from '@cellport/shared';
import type { Notification } from '@cellport/shared/schemas/notifications';
import { renderText, type TextParams } from './server-texts.js';

// How a stored notification reads: its text in a language, the page it is about, its shape in the API. Stored as a
// key and params (issue 14, item 3), rendered when read.

export type NotificationType = 'payment' | 'other';
/** Plain values, every language's text of a value, or a nested text (server-texts.ts); rendered when read. */
export type NotificationParams = TextParams;

/**
 * Causes with a text of their own: a modem's host not heard from (`modem_down_host_silent`), a replacement that kept
 * the port's address (`port_replaced_address_kept`, decision 036).
 */
const CAUSES = new Set(['host_silent', 'address_kept']);
/**
 * A notification's text in `language` (packages/shared/locales/{lng}/notifications.json). A `cause` in the params picks
 * the key's text for that cause (`modem_down_host_silent`): the key, and what pairs with it, stay the same.
 */
export function renderNotification(language: string, key: string, params: Record<string, unknown>): string {
  const cause = typeof params.cause === 'string' && CAUSES.has(params.cause) ? params.cause : null;
  return renderText(language, cause ? `${key}_${cause}` : key, params);
}

/**
 * The page a notification is about, as a path inside the app without the language (`/support/<id>`), or
 * undefined: the bell links to it and the e-mail's button opens it.
 */
export function notificationLink(key: string | null | undefined, params: Record<string, unknown> | null | undefined): string | undefined {
  // The operators' alerts open the console page where they act on them.
  if (key === 'operator_modems_down' || key === 'operator_modems_up' || key === 'operator_replacement_queued') return '/admin/inventory';
  if (key === 'operator_webhook_disabled') return '/admin/customers';
  if (key?.startsWith('subscription_')) return '/billing#subscriptions';
  const ticket = typeof params?.ticket === 'string' ? params.ticket : null;
  if (!ticket) return undefined;
  if (key === 'support_reply') return `/support/${ticket}`;
  if (key === 'support_ticket_new' || key === 'support_customer_reply' || key === 'support_assigned') return `/admin/support/${ticket}`;
  return undefined;
}

export interface NotificationRow {
  id: string; text: string; unread: boolean; type: NotificationType; created_at: Date;
  text_key?: string | null; params?: Record<string, unknown> | null;
}
/**
 * A notification as the API shows it, rendered from its key and params in the reader's `language` (issue 14,
 * item 3). Without a language (or a key) it shows `text`, rendered in the customer's language when stored: the
 * e-mail's text and the realtime push, which does not know which language the open dashboard reads.
 */
export const toNotification = (row: NotificationRow, language?: Language): Notification => {
  const link = notificationLink(row.text_key, row.params);
  return {
    _id: row.id,
    text: language && row.text_key ? renderNotification(language, row.text_key, row.params ?? {}) : row.text,
    unread: row.unread, type: row.type, timestamp: row.created_at.toISOString(),
    ...(link ? { link } : {}),
  };
};
