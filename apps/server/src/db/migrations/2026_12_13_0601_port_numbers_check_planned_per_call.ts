import { sql, type Kysely } from 'kysely';

// The number check (2026_12_13_0600) is planned at each call, with its numbers and the tables' sizes of the moment
// (issue 31, item 3). PL/pgSQL keeps a generic plan of each statement per connection after a few calls; made while
// the ports table was small (a fresh farm, the benches' first purchases), it scanned the whole table ever after:
// 976 rows read for each check by the end of a buying run at load 25 (bench/BENCHMARKS.md), as a connection lives
// for the whole run and only an ANALYZE would have made it plan again. Planning the check's few small statements
// costs far less than one such scan.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter function cellport_port_numbers_taken(uuid, integer[], uuid) set plan_cache_mode = force_custom_plan`.execute(db);
}
