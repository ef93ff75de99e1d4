import { sql, type Kysely } from 'kysely';

// The console overview counts every customer (issue 13, item 7; decision 029). `count(*) … where role = 'customer'`
// read the whole users table (Seq Scan of 100,000 rows in bench/scale.mjs). This partial index holds only customers
// and their sign-up time, so the total and the new customers of the period are one Index Only Scan of a small index.
// Users rows are seldom updated (profile, password, two-factor), so the visibility map keeps the scan off the heap.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index users_customers_created on users (created_at) where role = 'customer'`.execute(db);
}
