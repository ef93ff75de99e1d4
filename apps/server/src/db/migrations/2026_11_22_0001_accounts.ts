import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null unique,
      name text not null,
      company_name text not null default '',
      password_hash text not null,
      purpose text not null default '',
      website_wishlist text not null default '',
      language text not null default 'en',
      marketing_consent boolean not null default false,
      invite_token text,
      role text not null default 'customer' check (role in ('customer', 'admin')),
      is_active boolean not null default true,
      is_verified boolean not null default false,
      totp_secret text,
      totp_pending_secret text,
      totp_last_step bigint,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create table sessions (
      id text primary key,
      user_id uuid not null references users(id) on delete cascade,
      ip text not null default '',
      user_agent text not null default '',
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index sessions_user_id on sessions(user_id);
    create table user_tokens (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      purpose text not null check (purpose in ('email_verify', 'password_reset')),
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index user_tokens_user on user_tokens(user_id, purpose);
    create table mail_outbox (
      id bigserial primary key,
      to_email text not null,
      subject text not null,
      text text not null,
      html text not null,
      sent_at timestamptz,
      error text,
      created_at timestamptz not null default now()
    );
    create index mail_outbox_to on mail_outbox(to_email, created_at desc);
  `.execute(db);
}
