import { sql, type Kysely } from 'kysely';

// Operator alerts (issue 28, item 8): the operators hear of their farm's trouble (modems down and back, ports waiting
// for a free modem, customers' webhooks given up) in the console's bell always, and by e-mail and in their linked
// Telegram chat as each operator chooses here (both on until they say otherwise). The Telegram trigger of
// 2026_12_09_0200 learns the alert keys, gated by that choice (OPERATOR_ALERT_KEYS in
// packages/shared/src/schemas/admin/alerts.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table operator_alert_settings (
      user_id uuid primary key references users(id) on delete cascade,
      email boolean not null default true,
      telegram boolean not null default true
    );

    create or replace function cellport_notification_telegram() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from telegram_links l where l.user_id = new.user_id
                 and (l.kinds ? new.text_key
                      or new.text_key in ('support_ticket_new', 'support_customer_reply', 'support_assigned')
                      or (new.text_key in ('operator_modems_down', 'operator_modems_up', 'operator_replacement_queued',
                                           'operator_webhook_disabled')
                          and coalesce((select s.telegram from operator_alert_settings s where s.user_id = new.user_id), true)))) then
        new.telegram := 'pending';
      end if;
      return new;
    end $$;
  `.execute(db);
}
