import { sql, type Kysely } from 'kysely';

// API key scopes and spending caps (issue 26, item 9):
// - scope: 'read' answers GET only; 'manage' may also change and rotate ports but never spends; 'full' may buy and
//   renew too. Keys made before scopes existed keep what they could do ('full').
// - monthly_spend_limit: on a 'full' key, the most it may spend per calendar month (UTC), in micro-USD; null: no cap.
// api_key_spends records each payment a key made, written in the purchase's own transaction, so the cap is checked
// against exactly what was charged and a refused purchase leaves nothing behind.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table api_keys
      add column scope text not null default 'full' check (scope in ('read', 'manage', 'full')),
      add column monthly_spend_limit bigint check (monthly_spend_limit >= 0),
      add constraint api_keys_limit_needs_full check (monthly_spend_limit is null or scope = 'full');

    create table api_key_spends (
      payment_id uuid primary key references payments(id) on delete cascade,
      api_key_id uuid not null references api_keys(id) on delete cascade,
      amount bigint not null check (amount >= 0),
      created_at timestamptz not null default now()
    );
    create index api_key_spends_by_key on api_key_spends (api_key_id, created_at);
  `.execute(db);
}
