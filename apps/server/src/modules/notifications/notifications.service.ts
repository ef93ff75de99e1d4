import { randomUUID } from 'node:crypto';
import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@cellport/shared';
import { OPERATOR_ALERT_KEYS, type OperatorAlertKey } from '@cellport/shared/schemas/admin/alerts';
import { OPERATOR_MESSAGE_MAX, type Notification } from '@cellport/shared/schemas/notifications';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import { pollBump } from '../../lib/poll-versions.js';
import { renderText, type TextParams } from './server-texts.js';

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

/** How many modems an operator alert names one by one; the rest are counted. */
const OPERATOR_ALERT_MODEMS = 10;

/** Operator message texts per language; English is required and stands in for a missing language. */
export type OperatorTexts = { en: string } & Partial<Record<Language, string>>;

/** Whom a notification speaks to: their language, and whether they agreed to mail beyond the essentials. */
export interface Recipient { language: string; marketing_consent: boolean }

interface NotificationRow {
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

/**
 * Stores notifications (key and params, rendered in the reader's language when read, and the text in the
 * customer's language for the e-mail and the realtime push), bumps their poll version and announces the
 * notification to their open dashboards — all in the caller's transaction, so nothing is shown or mailed for a
 * change that rolled back. E-mails go out after the commit (notification-emails.ts).
 */
export class NotificationsService {
  constructor(private readonly db: Database) {}

  /**
   * Pass the caller's transaction so the notification commits (or not) with what it tells about, and the
   * customer's language and consent when the caller has already read them.
   */
  async notify(userId: string, type: NotificationType, key: string, params: NotificationParams, tx?: Tx, recipient?: Recipient): Promise<void> {
    if (!tx) return this.db.transaction().execute((own) => this.notify(userId, type, key, params, own, recipient));
    const user = recipient
      ?? await tx.selectFrom('users').select(['language', 'marketing_consent']).where('id', '=', userId).executeTakeFirst();
    if (!user) return;
    await this.insert(tx, userId, {
      type, key, params,
      text: renderNotification(user.language, key, params),
      mail: mailsTo(key, user),
    });
  }

  /**
   * A modem went offline or came back (issue 14, item 5): each customer with an active port on it hears of it once
   * per change. 'Back online' goes only to ports told 'offline' (the last availability notice of the port), and
   * 'offline' is not repeated, so a modem that flaps between heartbeats says each thing once. `silentMinutes`: offline
   * because its host's agent has not been heard from for that long (the sweep), which is all that is known; the
   * text says so (issue 28, item 3).
   */
  async modemAvailability(modemIds: string[], online: boolean, silentMinutes?: number): Promise<number> {
    if (modemIds.length === 0) return 0;
    const key = online ? 'modem_up' : 'modem_down';
    return this.db.transaction().execute(async (tx) => {
      const ports = await tx.selectFrom('ports').innerJoin('users', 'users.id', 'ports.user_id')
        .select(['ports.id', 'ports.user_id', 'ports.name', 'users.language', 'users.marketing_consent'])
        .where('ports.modem_id', 'in', modemIds).where('ports.status', '=', 'active').execute();
      let sent = 0;
      for (const port of ports) {
        const last = await tx.selectFrom('notifications').select('text_key')
          .where('user_id', '=', port.user_id).where('text_key', 'in', ['modem_down', 'modem_up'])
          .where(sql<boolean>`params->>'port' = ${port.id}`)
          .orderBy('created_at', 'desc').limit(1).executeTakeFirst();
        if (online ? last?.text_key !== 'modem_down' : last?.text_key === 'modem_down') continue;
        const params: NotificationParams = { name: port.name, port: port.id };
        if (!online && silentMinutes !== undefined) Object.assign(params, { cause: 'host_silent', minutes: silentMinutes });
        await this.notify(port.user_id, 'other', key, params, tx, port);
        sent++;
      }
      await this.alertModems(tx, modemIds, online);
      return sent;
    });
  }

  /**
   * The operators hear of the same changes: one alert per host and change, naming the modems (offline ones with the
   * health checks' reason). A modem's `health_alerted` flips in the same statement that picks it, so each outage is
   * told once and its end once, whichever instance and however often it is recorded; one alert per host, not per
   * modem, so a farm's outage is a few messages, not a mail storm.
   */
  private async alertModems(tx: Tx, modemIds: string[], online: boolean): Promise<void> {
    const flipped = await tx.updateTable('modems').set({ health_alerted: !online })
      .where('id', 'in', modemIds).where('health_alerted', '=', online)
      .returning(['imei', 'host_id', 'health_reason']).execute();
    if (flipped.length === 0) return;
    const hosts = await tx.selectFrom('hosts').select(['id', 'name']).where('id', 'in', [...new Set(flipped.map((m) => m.host_id))]).execute();
    for (const host of hosts) {
      const modems = flipped.filter((m) => m.host_id === host.id).sort((a, b) => a.imei.localeCompare(b.imei));
      const named = modems.slice(0, OPERATOR_ALERT_MODEMS)
        .map((m) => (!online && m.health_reason ? `${m.imei} (${m.health_reason.slice(0, 200)})` : m.imei));
      const list = named.join('; ') + (modems.length > named.length ? `; +${modems.length - named.length}` : '');
      await this.alertOperators(tx, online ? 'operator_modems_up' : 'operator_modems_down', { host: host.name, modems: list });
    }
  }

  /**
   * An alert to every active operator (issue 28, item 8), in their language: in the console's bell always, by e-mail
   * as each chose (operator_alert_settings; no row: on), and to their linked Telegram chat as each chose (the
   * database trigger reads the same setting). A service message: no marketing consent asked, no unsubscribe link.
   */
  async alertOperators(tx: Tx, key: OperatorAlertKey, params: NotificationParams): Promise<void> {
    const operators = await tx.selectFrom('users').leftJoin('operator_alert_settings as s', 's.user_id', 'users.id')
      .select(['users.id', 'users.language', 's.email'])
      .where('users.role', '=', 'admin').where('users.is_active', '=', true).execute();
    for (const op of operators) {
      await this.insert(tx, op.id, { type: 'other', key, params, text: renderNotification(op.language, key, params), mail: op.email ?? true });
    }
  }

  /**
   * A message from the operator to some customers or to everyone, each in their own language. One transaction
   * per chunk of customers keeps a broadcast to many from holding one long transaction.
   */
  async sendOperatorMessage(userIds: string[] | 'all', texts: OperatorTexts): Promise<number> {
    const clean = Object.fromEntries(Object.entries(texts)
      .map(([lng, text]) => [lng, String(text ?? '').trim().slice(0, OPERATOR_MESSAGE_MAX)])
      .filter(([, text]) => text)) as Partial<Record<Language, string>>;
    if (!clean.en) throw new Error('an operator message needs an English text');
    const CHUNK = 200;
    let sent = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      let q = this.db.selectFrom('users').select(['id', 'language', 'marketing_consent'])
        .where('is_active', '=', true).where('id', '>', after).orderBy('id').limit(CHUNK);
      if (userIds !== 'all') {
        if (!userIds.length) break;
        q = q.where('id', 'in', userIds);
      }
      const users = await q.execute();
      if (!users.length) break;
      await this.db.transaction().execute(async (tx) => {
        for (const u of users) {
          const text = clean[isLanguage(u.language) ? u.language : FALLBACK_LANGUAGE] ?? clean.en!;
          // Every language's text is kept, so the message reads in whichever language the dashboard is open in.
          await this.insert(tx, u.id, {
            type: 'other', key: 'operator_message', params: { text: clean as OperatorTexts }, text, mail: u.marketing_consent,
          });
        }
      });
      sent += users.length;
      after = users[users.length - 1]!.id;
      if (users.length < CHUNK) break;
    }
    return sent;
  }

  /** The notification, the poll bump and its NOTIFY in one statement (the id and time are chosen here for the event). */
  private async insert(tx: Tx, userId: string, n: { type: NotificationType; key: string; params: NotificationParams; text: string; mail: boolean }): Promise<void> {
    const row = { id: randomUUID(), text: n.text, unread: true, type: n.type, created_at: new Date(), text_key: n.key, params: n.params };
    const bump = pollBump('notifications', userId, {
      event: { name: 'notification', data: toNotification(row) },
      ...(n.mail ? { mail: row.id } : {}),
    });
    await tx
      .with('note', (db) => db.insertInto('notifications').values({
        id: row.id, user_id: userId, type: n.type, text_key: n.key, params: JSON.stringify(n.params), text: n.text,
        email: n.mail ? 'pending' : null, created_at: row.created_at,
      }))
      .with('bumped', () => bump.upsert(tx))
      .selectFrom('bumped').select(bump.notify.as('notified'))
      .execute();
  }
}
