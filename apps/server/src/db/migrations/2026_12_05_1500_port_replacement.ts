import { sql, type Kysely } from 'kysely';

// Replacement of a port's modem (issue 15, item 6).
// - modems.maintenance_since: a modem taken out of service after its port(s) moved off it (offline too long, or a
//   customer asked for another modem); it is never sold or picked as a replacement until an operator returns it to
//   service. The free-stock index leaves such modems out, like the stock queries.
// - port_replacements: one row per port that was ever replaced or asked to be. `queued_since` set: the port waits
//   for a free modem (the durable queue the replacement job picks up); `queued_told`: the customer was told it waits;
//   `customer_requested_at`: the last request from Your Proxies (at most one per 24 h).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table modems add column maintenance_since timestamptz;
    alter table modems add column maintenance_reason text;

    drop index modems_free_stock;
    create index modems_free_stock on modems(country_id, is_shared, imei)
      where used_slots < capacity and online and not retired and maintenance_since is null;

    create table port_replacements (
      port_id uuid primary key references ports(id) on delete cascade,
      queued_since timestamptz,
      queued_reason text check (queued_reason in ('offline', 'customer')),
      queued_told boolean not null default false,
      customer_requested_at timestamptz,
      moves integer not null default 0,
      last_moved_at timestamptz
    );
    create index port_replacements_queued on port_replacements(queued_since) where queued_since is not null;
  `.execute(db);
}
