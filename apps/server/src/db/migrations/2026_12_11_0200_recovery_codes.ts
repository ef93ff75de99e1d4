import { sql, type Kysely } from 'kysely';

// Two-factor recovery codes (issue 27, item 5): ten one-time codes given at set-up, for when the phone is lost.
// Only an HMAC of each code (keyed by the server secret) is stored; a code is used up by one conditional update
// (used_at is null → now()), so two sign-ins racing with the same code cannot both pass. Regenerating deletes the
// old set and inserts a new one in one transaction.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table two_factor_recovery_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      code_hash text not null,
      used_at timestamptz,
      created_at timestamptz not null default now(),
      unique (user_id, code_hash)
    );
  `.execute(db);
}
