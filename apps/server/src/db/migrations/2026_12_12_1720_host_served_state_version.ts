import { sql, type Kysely } from 'kysely';

// Issue 30: the desired-state version each host's agent last said it serves (its heartbeat's stateVersion), so that
// "what a site sees" can wait until the agent serves the port's current preset, whichever server instance holds
// the agent's connection. Heartbeats write it every 10 s: it is not among the columns whose change announces the
// port lists (trigger ports_list_hosts_update names its columns), so it costs no recomputation.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table hosts add column state_version text`.execute(db);
}
