import { sql, type Kysely } from 'kysely';

// Solved ALTCHA challenges, remembered until they expire so a solution cannot be replayed — on any instance.
// Failed sign-in attempts per login, so a brute force spread over many IP addresses is still stopped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table captcha_solutions (
      challenge text primary key,
      expires_at timestamptz not null
    );
    create index captcha_solutions_expires on captcha_solutions(expires_at);
    create table login_failures (
      id bigserial primary key,
      login text not null,
      created_at timestamptz not null default now()
    );
    create index login_failures_login on login_failures(login, created_at);
  `.execute(db);
}
