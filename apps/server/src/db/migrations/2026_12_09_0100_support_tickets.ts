import { sql, type Kysely } from 'kysely';

// Support tickets (issue 17 item 4). A customer's ticket, optionally about one of their ports, numbered from a
// sequence for people ("#1042"); its messages from the customer and from operators; screenshots stored in the
// database (bytea: backups and several instances need nothing more), uploaded first and referenced by a message
// later (`message_id` null until then; a job deletes unreferenced uploads after 24 h); operators' canned replies.
// `last_customer_message_at` / `last_operator_message_at` against `operator_read_at` / `customer_read_at` make
// "unread" a comparison of columns of the row. Telegram: the new kinds reach linked chats (see the end).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create sequence support_ticket_numbers start with 1001;

    create table support_tickets (
      id uuid primary key default gen_random_uuid(),
      number int not null unique default nextval('support_ticket_numbers'),
      user_id uuid not null references users(id) on delete cascade,
      port_id uuid references ports(id) on delete set null,
      subject text not null,
      state text not null default 'open' check (state in ('open', 'waiting', 'closed')),
      assignee_id uuid references users(id) on delete set null,
      last_message_at timestamptz not null default now(),
      last_customer_message_at timestamptz,
      last_operator_message_at timestamptz,
      customer_read_at timestamptz,
      operator_read_at timestamptz,
      created_at timestamptz not null default now()
    );
    alter sequence support_ticket_numbers owned by support_tickets.number;
    -- The customer's list, and the console inbox by state (and by assignee), newest activity first.
    create index support_tickets_user on support_tickets (user_id, last_message_at desc);
    create index support_tickets_inbox on support_tickets (state, last_message_at desc);
    create index support_tickets_assignee on support_tickets (assignee_id, state, last_message_at desc) where assignee_id is not null;

    create table support_messages (
      id uuid primary key default gen_random_uuid(),
      ticket_id uuid not null references support_tickets(id) on delete cascade,
      author text not null check (author in ('customer', 'operator')),
      author_id uuid references users(id) on delete set null,
      body text not null,
      created_at timestamptz not null default now()
    );
    create index support_messages_ticket on support_messages (ticket_id, created_at);

    create table support_attachments (
      id uuid primary key default gen_random_uuid(),
      uploaded_by uuid not null references users(id) on delete cascade,
      message_id uuid references support_messages(id) on delete cascade,
      name text not null,
      type text not null check (type in ('image/png', 'image/jpeg', 'image/webp')),
      size int not null check (size between 1 and 5242880),
      data bytea not null,
      created_at timestamptz not null default now()
    );
    create index support_attachments_message on support_attachments (message_id) where message_id is not null;
    create index support_attachments_unreferenced on support_attachments (created_at) where message_id is null;
    -- A customer's uploads of the last day (their daily budget).
    create index support_attachments_uploader on support_attachments (uploaded_by, created_at);

    create table support_canned_replies (
      id uuid primary key default gen_random_uuid(),
      title text not null,
      body text not null,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    -- Telegram: a customer's linked chat gets operators' replies unless they switch them off (a new kind, on for
    -- chats linked before it existed); an operator's linked chat gets the support alerts meant for operators,
    -- which are no customer's kind to choose.
    update telegram_links set kinds = kinds || '["support_reply"]'::jsonb where not kinds ? 'support_reply';
    create or replace function cellport_notification_telegram() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from telegram_links l where l.user_id = new.user_id
                 and (l.kinds ? new.text_key or new.text_key in ('support_ticket_new', 'support_customer_reply'))) then
        new.telegram := 'pending';
      end if;
      return new;
    end $$;
  `.execute(db);
}
