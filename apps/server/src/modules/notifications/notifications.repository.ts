import { randomUUID } from 'node:crypto';
import type { Language } from '@cellport/shared';
import { NOTIFICATIONS_PAGE, type Notification } from '@cellport/shared/schemas/notifications';
import { sql, type RawBuilder } from 'kysely';
import { keptInsert } from '../../db/compiled-once.js';
import type { Database, Tx } from '../../db/database.js';
import type { MailMessage } from '../../integrations/mail/mailer.js';
import { keptNotificationMailInsert, notificationMailInsert } from '../../integrations/mail/mail-outbox.repository.js';
import { bumpPollVersion, pollBump } from '../../lib/poll-versions.js';
import { toNotification, type NotificationParams, type NotificationType } from './notification-view.js';

const COLUMNS = ['id', 'text', 'text_key', 'params', 'unread', 'type', 'created_at'] as const;

/**
 * A notification to store: its key and params, its text in the recipient's language now, and whether it is mailed
 * after the commit (`mail`) or its e-mail is written with it (`written`).
 */
/** A caller's own parts of a notification's statement (`insert`'s `alongside`). */
export interface AlongsideCtes {
  /** More CTEs, `name as (…), …`: data-modifying, so they run unreferenced. */
  ctes: RawBuilder<unknown>;
  /**
   * A select the statement answers with, which may read those CTEs (a purchase's new ports, listed: a round trip
   * fewer, issue 31). When it finds nothing the statement answers one row of nulls.
   */
  rows?: RawBuilder<unknown>;
}
export interface NewNotification { type: NotificationType; key: string; params: NotificationParams; text: string; mail: boolean; written?: MailMessage | undefined }

/**
 * Notifications, and what deciding them reads: recipients' language and consent, the ports on a modem, the operators
 * and their alert settings. A customer's own reads are scoped by the user id. Texts are rendered in the reader's
 * `language` (the request's, see readerLanguage); without one, in the language the customer had when each was stored.
 */
export class NotificationsRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  // ---- the bell

  async latest(userId: string, limit = NOTIFICATIONS_PAGE, language?: Language): Promise<Notification[]> {
    const rows = await this.db.selectFrom('notifications').select(COLUMNS)
      .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => toNotification(row, language));
  }

  /** Marks one read and returns it; null when it is not this customer's. Bumps the version only on a change. */
  async markRead(userId: string, id: string, language?: Language): Promise<Notification | null> {
    return this.db.transaction().execute(async (tx) => {
      const changed = await tx.updateTable('notifications').set({ unread: false })
        .where('id', '=', id).where('user_id', '=', userId).where('unread', '=', true)
        .returning(COLUMNS).executeTakeFirst();
      if (changed) {
        // The push goes to every open dashboard, whatever its language: the stored text (toNotification).
        await bumpPollVersion(tx, 'notifications', userId, { event: { name: 'notification', data: toNotification(changed) } });
        return toNotification(changed, language);
      }
      const row = await tx.selectFrom('notifications').select(COLUMNS)
        .where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return row ? toNotification(row, language) : null;
    });
  }

  async markAllRead(userId: string): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const changed = await tx.updateTable('notifications').set({ unread: false })
        .where('user_id', '=', userId).where('unread', '=', true).returning('id').execute();
      if (changed.length) await bumpPollVersion(tx, 'notifications', userId);
      return changed.length;
    });
  }

  // ---- storing

  /**
   * The notification, its written e-mail, the poll bump and its NOTIFY in one statement (the id and time are chosen
   * here for the event). A written e-mail is marked sent: it is in the outbox, committed with the notification.
   * `alongside`: the caller's CTEs, written in the same statement, and the rows it answers with (a purchase's ports and
   * their listing: round trips fewer, issue 31); without it, nothing is answered.
   */
  async insert<R>(tx: Tx, userId: string, n: NewNotification, alongside?: AlongsideCtes): Promise<R[]> {
    const row = { id: randomUUID(), text: n.text, unread: true, type: n.type, created_at: new Date(), text_key: n.key, params: n.params };
    const bump = pollBump('notifications', userId, {
      event: { name: 'notification', data: toNotification(row) },
      ...(n.written ? { mailed: row.id } : n.mail ? { mail: row.id } : {}),
    });
    const note = {
      id: row.id, user_id: userId, type: n.type, text_key: n.key, params: JSON.stringify(n.params), text: n.text,
      email: n.written ? 'sent' as const : n.mail ? 'pending' as const : null, created_at: row.created_at,
    };
    const written = n.written;
    if (alongside) {
      // The NOTIFY in a CTE of its own: a volatile one is run once, whatever the rows joined to it.
      const { rows } = await sql<R>`with note as (${keptInsert('notifications', [note], () => tx.insertInto('notifications').values(note))}),
        ${written ? sql`mailed as (${keptNotificationMailInsert(tx, row.id, written)}),` : sql``}
        bumped as (${bump.upsertPart(tx)}),
        ${alongside.ctes},
        notified as (select ${bump.notify} as notified from bumped)
        ${alongside.rows ? sql`select answer.* from notified left join (${alongside.rows}) as answer on true` : sql`select from notified`}`.execute(tx);
      return alongside.rows ? rows : [];
    }
    const notified = bump.notify.as('notified');
    if (!written) {
      await tx.with('note', (db) => db.insertInto('notifications').values(note))
        .with('bumped', () => bump.upsert(tx)).selectFrom('bumped').select(notified).execute();
      return [];
    }
    await tx.with('note', (db) => db.insertInto('notifications').values(note))
      .with('mailed', () => notificationMailInsert(tx, row.id, written))
      .with('bumped', () => bump.upsert(tx)).selectFrom('bumped').select(notified).execute();
    return [];
  }

  /**
   * A customer's language and marketing consent, and their address, name and standing (so the notification's e-mail
   * is written with it), or undefined when there is no such user.
   */
  async recipient(tx: Tx, userId: string) {
    return tx.selectFrom('users').select(['language', 'marketing_consent', 'email', 'name', 'is_active']).where('id', '=', userId).executeTakeFirst();
  }

  async userExists(userId: string): Promise<boolean> {
    return Boolean(await this.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst());
  }

  /** Active customers after `after` in id order (a page of a broadcast), all or only those of `userIds`. */
  async activeUsersAfter(after: string, limit: number, userIds: string[] | 'all') {
    let q = this.db.selectFrom('users').select(['id', 'language', 'marketing_consent'])
      .where('is_active', '=', true).where('id', '>', after).orderBy('id').limit(limit);
    if (userIds !== 'all') q = q.where('id', 'in', userIds);
    return q.execute();
  }

  // ---- modems' availability and the operators' alerts

  /** The active ports on these modems, with their customer's language and consent. */
  async activePortsOnModems(tx: Tx, modemIds: string[]) {
    return tx.selectFrom('ports').innerJoin('users', 'users.id', 'ports.user_id')
      .select(['ports.id', 'ports.user_id', 'ports.name', 'ports.default_number', 'users.language', 'users.marketing_consent'])
      .where('ports.modem_id', 'in', modemIds).where('ports.status', '=', 'active').execute();
  }

  /** The key of the last availability notice (modem_down / modem_up) the customer had about the port. */
  async lastAvailabilityNotice(tx: Tx, userId: string, portId: string): Promise<string | undefined> {
    const last = await tx.selectFrom('notifications').select('text_key')
      .where('user_id', '=', userId).where('text_key', 'in', ['modem_down', 'modem_up'])
      .where(sql<boolean>`params->>'port' = ${portId}`)
      .orderBy('created_at', 'desc').limit(1).executeTakeFirst();
    return last?.text_key;
  }

  /**
   * Flips `health_alerted` of the modems not yet alerted of this change, in the statement that picks them, so each
   * outage and its end is told once whichever instance records it; the flipped modems.
   */
  async flipModemsAlerted(tx: Tx, modemIds: string[], online: boolean) {
    return tx.updateTable('modems').set({ health_alerted: !online })
      .where('id', 'in', modemIds).where('health_alerted', '=', online)
      .returning(['imei', 'host_id', 'health_reason']).execute();
  }

  async hostNames(tx: Tx, hostIds: string[]) {
    return tx.selectFrom('hosts').select(['id', 'name']).where('id', 'in', hostIds).execute();
  }

  /** Every active operator, their language and whether they want alerts mailed (null: no choice made, on). */
  async activeOperators(tx: Tx) {
    return tx.selectFrom('users').leftJoin('operator_alert_settings as s', 's.user_id', 'users.id')
      .select(['users.id', 'users.language', 's.email'])
      .where('users.role', '=', 'admin').where('users.is_active', '=', true).execute();
  }

  // ---- e-mails

  /**
   * Claims a notification's pending e-mail (pending → sent: one instance wins it) and reads its recipient, in one
   * statement: every purchase mails, so a round trip here is one per purchase.
   */
  async claimEmail(notificationId: string) {
    return this.db.updateTable('notifications').set({ email: 'sent' })
      .from('users')
      .whereRef('users.id', '=', 'notifications.user_id')
      .where('notifications.id', '=', notificationId).where('notifications.email', '=', 'pending')
      .returning(['notifications.user_id', 'notifications.text_key', 'notifications.text', 'notifications.params',
        'users.email', 'users.name', 'users.language', 'users.marketing_consent', 'users.is_active'])
      .executeTakeFirst();
  }

  /** Notifications whose e-mail is still pending after `olderThanMs`, oldest first (at most 200). */
  async pendingEmails(olderThanMs: number): Promise<string[]> {
    const rows = await this.db.selectFrom('notifications').select('id').where('email', '=', 'pending')
      .where('created_at', '<=', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
      .orderBy('created_at').limit(200).execute();
    return rows.map((r) => r.id);
  }

  /** The unsubscribe link: the customer's marketing consent off; their language, or undefined for no such customer. */
  async withdrawMarketingConsent(userId: string): Promise<string | undefined> {
    const user = await this.db.updateTable('users').set({ marketing_consent: false }).where('id', '=', userId)
      .returning('language').executeTakeFirst();
    return user?.language;
  }
}
