import { sql, type Kysely } from 'kysely';

// Issue 30: what each port of a host serves, as its agent last reported it ({ portId: digest }, the heartbeat's
// `ports`), so "what a site sees" waits for its own port's settings only, not for the whole host's state (another
// customer's change on the same host kept a check "still applying"). Written only when it changed; not among the
// columns whose change announces the port lists (trigger ports_list_hosts_update names its columns).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table hosts add column served_ports jsonb`.execute(db);
}
