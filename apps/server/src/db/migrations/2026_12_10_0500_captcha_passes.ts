import { sql, type Kysely } from 'kysely';

// Issue 26: a solved captcha was a 30-minute bearer pass for any client, and failed sign-ins were counted per login
// alone, so anyone could lock any account out. A pass now lives here, bound to the address that solved it, with a
// small budget of uses; failures carry the address they came from.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table captcha_passes (
      id text primary key,
      address text not null,
      uses_left integer not null check (uses_left >= 0),
      expires_at timestamptz not null
    );
    create index captcha_passes_expires on captcha_passes(expires_at);
    alter table login_failures add column address text not null default '';
    create index login_failures_login_address on login_failures(login, address, created_at);
  `.execute(db);
}
