import { sql, type Kysely } from 'kysely';

// Telegram (issue 16, item 2). A customer's chat linked through a one-time /start token (stored as its SHA-256),
// the notification keys they want there, and a per-notification claim (`notifications.telegram`: pending → sent)
// so exactly one instance sends each. A trigger marks a new notification pending when its customer has a linked
// chat that wants its key, and announces it on `cellport_telegram` (delivered at commit, dropped on rollback): the
// notifications service needs no change. `telegram_poller` is the lease that lets one instance long-poll.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table telegram_link_tokens (
      token_hash text primary key,
      user_id uuid not null references users(id) on delete cascade,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index telegram_link_tokens_user on telegram_link_tokens (user_id);

    create table telegram_links (
      user_id uuid primary key references users(id) on delete cascade,
      chat_id text not null unique,
      chat_name text not null default '',
      kinds jsonb not null default '[]'::jsonb,
      created_at timestamptz not null default now()
    );

    create table telegram_poller (
      id int primary key check (id = 1),
      holder text not null,
      leased_until timestamptz not null
    );

    alter table notifications add column telegram text check (telegram in ('pending', 'sent', 'failed'));
    create index notifications_telegram_pending on notifications (created_at) where telegram = 'pending';

    create function cellport_notification_telegram() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from telegram_links l where l.user_id = new.user_id and l.kinds ? new.text_key) then
        new.telegram := 'pending';
      end if;
      return new;
    end $$;
    create trigger notifications_telegram before insert on notifications
      for each row execute function cellport_notification_telegram();

    create function cellport_notification_telegram_announce() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cellport_telegram', new.id::text);
      return null;
    end $$;
    create trigger notifications_telegram_announce after insert on notifications
      for each row when (new.telegram = 'pending') execute function cellport_notification_telegram_announce();
  `.execute(db);
}
