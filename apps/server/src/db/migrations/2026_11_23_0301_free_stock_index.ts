import { sql, type Kysely } from 'kysely';

// Buying picks the first free modem by IMEI among thousands of taken ones: index only the free ones.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index modems_free_stock on modems(country_id, is_shared, imei)
      where used_slots < capacity and online and not retired
  `.execute(db);
}
