import { sql, type Kysely } from 'kysely';

// Issue 5: per-customer poll versions, notification e-mail state, API keys, host ingest keys and traffic samples.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A counter per customer and polled resource (notifications, pending crypto payment). Bumped in the same
    -- transaction as the change it announces; instances keep it in memory and answer unchanged polls from there.
    create table poll_versions (
      user_id uuid not null references users(id),
      kind text not null,
      version bigint not null default 0,
      primary key (user_id, kind)
    );

    -- null: no e-mail for this one; 'pending': to be mailed; 'sent': handed to the mailer.
    alter table notifications add column email text check (email in ('pending', 'sent'));
    create index notifications_email_pending on notifications(created_at) where email = 'pending';

    create table api_keys (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id),
      name text not null,
      prefix text not null,
      key_hash text not null unique,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create index api_keys_user on api_keys(user_id, created_at desc) where revoked_at is null;

    alter table hosts add column ingest_key_hash text unique;

    -- One row per host, modem and interval: a resend of the same sample hits the primary key and changes nothing.
    create table traffic_samples (
      host_id uuid not null references hosts(id),
      imei text not null,
      interval_start timestamptz not null,
      modem_id uuid not null references modems(id),
      -- The port active on the modem at that time (null when none, or several ports shared it).
      port_id uuid references ports(id),
      user_id uuid references users(id),
      bytes_in bigint not null check (bytes_in >= 0),
      bytes_out bigint not null check (bytes_out >= 0),
      received_at timestamptz not null default now(),
      primary key (host_id, imei, interval_start)
    );
    create index traffic_samples_user on traffic_samples(user_id, interval_start) where user_id is not null;
  `.execute(db);
}
