// The statements of the mail outbox (`mail_outbox`, the Mailer's own table; the development mailbox reads it in
// modules/dev/dev-outbox.repository.ts).
import { sql } from 'kysely';
import { keptInsert } from '../../db/compiled-once.js';
import type { Database, Tx } from '../../db/database.js';

type OutboxMessage = { to: string; subject: string; text: string; html: string };

/** Writes a message the Mailer hands to SMTP itself (so it is claimed as written); its id. */
export async function addToOutbox(db: Database, message: OutboxMessage): Promise<string> {
  const row = await db.insertInto('mail_outbox')
    .values({ to_email: message.to, subject: message.subject, text: message.text, html: message.html, handed_at: sql`now()` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A notification's e-mail, unexecuted, for the statement that writes the notification (a CTE): it commits with it,
 * and the unique notification_id keeps it to one. Handed to SMTP after the commit (`claimNotificationMail`).
 */
export function notificationMailInsert(tx: Tx, notificationId: string, message: OutboxMessage) {
  return tx.insertInto('mail_outbox').values(outboxRow(notificationId, message));
}

/** The same, as a part of a bigger statement, its text kept (`keptInsert`). */
export function keptNotificationMailInsert(tx: Tx, notificationId: string, message: OutboxMessage) {
  const row = outboxRow(notificationId, message);
  return keptInsert('mail_outbox', [row], () => tx.insertInto('mail_outbox').values(row));
}

const outboxRow = (notificationId: string, message: OutboxMessage) => ({
  to_email: message.to, subject: message.subject, text: message.text, html: message.html, notification_id: notificationId,
});

/** Claims a notification's written e-mail for SMTP (null → now(): one instance wins); the message, or undefined. */
export async function claimNotificationMail(db: Database, notificationId: string) {
  return db.updateTable('mail_outbox').set({ handed_at: sql`now()` })
    .where('notification_id', '=', notificationId).where('handed_at', 'is', null)
    .returning(['id', 'to_email as to', 'subject', 'text', 'html']).executeTakeFirst();
}

/** Notifications whose written e-mail no instance has claimed after `olderThanMs` (a missed NOTIFY), oldest first. */
export async function unclaimedNotificationMails(db: Database, olderThanMs: number): Promise<string[]> {
  const rows = await db.selectFrom('mail_outbox').select('notification_id').where('handed_at', 'is', null)
    .where('created_at', '<=', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
    .orderBy('created_at').limit(200).execute();
  return rows.flatMap((r) => (r.notification_id ? [r.notification_id] : []));
}

/** Marks a message handed to SMTP. */
export async function markSent(db: Database, id: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ sent_at: new Date() }).where('id', '=', id).execute();
}

/** Records why SMTP refused a message. */
export async function markFailed(db: Database, id: string, error: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ error }).where('id', '=', id).execute();
}
