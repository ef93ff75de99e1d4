import { sql, type Kysely } from 'kysely';

// Which process ran a job (decision 044): with web and worker processes on one database, an operator (and the
// worker test) can see that jobs ran on a worker, and on which one. Null for jobs done before this column.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jobs add column done_by text`.execute(db);
}
