import { sql, type Kysely } from 'kysely';

// Issue 27, item 12: a region's name in the reader's language. `name` stays the English name (the operator's CSV
// import, the stock view and the benches find a region by it); Russian and Chinese are optional and read English
// while they are empty (null).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table regions add column name_ru text, add column name_cn text`.execute(db);
}
