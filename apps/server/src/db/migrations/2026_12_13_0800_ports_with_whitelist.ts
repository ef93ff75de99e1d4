import { sql, type Kysely } from 'kysely';

// The start's check for whitelist overlaps stored before the rule (ports.repository.ts storedWhitelists: the live
// ports with a whitelist, by modem then id) read every port: at --scale 10 (3,000,000 ports, bench/BENCHMARKS.md
// "Scale") a Parallel Seq Scan of 109,800 buffers and a sort, 850 ms on each server start, for ports that few
// customers have. This index holds only those ports, in the order the check reads them (issue 31).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index ports_with_whitelist on ports (modem_id, id) where status <> 'released' and whitelist <> '[]'::jsonb;
  `.execute(db);
}
