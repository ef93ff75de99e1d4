import { sql, type Kysely } from 'kysely';

// A notification's e-mail can be written to the outbox in the transaction that creates the notification (issue 31,
// item 3: a purchase's e-mail was two more commits after the purchase's own). `notification_id` names the
// notification it tells, unique, so the database itself keeps it to one e-mail per notification; `handed_at` is the
// claim of the one instance that hands it to SMTP after the commit (the conditional update null → now()). Rows the
// Mailer writes and hands over itself are claimed as they are written; the rows before this migration count as handed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table mail_outbox add column notification_id uuid, add column handed_at timestamptz;
    update mail_outbox set handed_at = created_at;
    create unique index mail_outbox_notification on mail_outbox(notification_id) where notification_id is not null;
    create index mail_outbox_unhanded on mail_outbox(created_at) where handed_at is null;
  `.execute(db);
}
