import { sql, type Kysely } from 'kysely';

// Support (issue 17 item 4): an operator who is assigned a ticket by another operator hears of it
// ('support_assigned'). Like the other support alerts meant for operators, it reaches an operator's linked
// Telegram chat whatever its kinds say (TELEGRAM_OPERATOR_KINDS in packages/shared/src/schemas/telegram.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function cellport_notification_telegram() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from telegram_links l where l.user_id = new.user_id
                 and (l.kinds ? new.text_key
                      or new.text_key in ('support_ticket_new', 'support_customer_reply', 'support_assigned'))) then
        new.telegram := 'pending';
      end if;
      return new;
    end $$;
  `.execute(db);
}
