import { sql, type Kysely } from 'kysely';

// Each modem's health as its agent's checks find it (issue 15, item 5): online, degraded or offline, with the
// reason, and since when (the server's clock, when the state last changed). `online` stays what customers and the
// stock depend on (any state but offline); these columns are for operators. `health_alerted` is true while the
// operators have been told the modem is offline and not yet that it is back: an update that flips it is the one
// instance that tells them, once. None of these columns is in the port-list trigger's list, so writing them
// announces nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table modems add column health text not null default 'online'
      check (health in ('online', 'degraded', 'offline'));
    alter table modems add column health_reason text;
    alter table modems add column health_changed_at timestamptz;
    alter table modems add column health_alerted boolean not null default false;
    update modems set health = 'offline', health_reason = problem where not online;
  `.execute(db);
}
