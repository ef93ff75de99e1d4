// The statements of the mail outbox (`mail_outbox`, the Mailer's own table; the development mailbox reads it in
// modules/dev/dev-outbox.repository.ts).
import type { Database } from '../../db/database.js';

/** Writes a message to the outbox; its id. */
export async function addToOutbox(db: Database, message: { to: string; subject: string; text: string; html: string }): Promise<string> {
  const row = await db.insertInto('mail_outbox')
    .values({ to_email: message.to, subject: message.subject, text: message.text, html: message.html })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Marks a message handed to SMTP. */
export async function markSent(db: Database, id: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ sent_at: new Date() }).where('id', '=', id).execute();
}

/** Records why SMTP refused a message. */
export async function markFailed(db: Database, id: string, error: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ error }).where('id', '=', id).execute();
}
