import { sql, type Kysely } from 'kysely';

// Per-port tags and a note (issue 16, item 4): the customer's own labels, to filter Your Proxies and the API
// (GET /api/v1/modems?tag=) and act on a group at once. Tags are kept lower case and sorted by the service; the
// checks are the database's last word on the limits the API's schema already enforces. A customer's list is read
// whole (a few hundred ports at most), so no index: `tag = any(tags)` filters it in memory.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table ports
      add column tags text[] not null default '{}' check (cardinality(tags) <= 10),
      add column note text not null default '' check (length(note) <= 500)
  `.execute(db);
}
