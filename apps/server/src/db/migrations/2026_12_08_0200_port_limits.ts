import { sql, type Kysely } from 'kysely';

// Per-port limits set per tariff (issue 18, item 3; docs/decisions/030-per-port-limits.md). The tariff says:
// - bandwidth_mbps: each port's cap in Mbit/s, each direction (null: none);
// - max_connections: concurrent connections per port, both protocols together (200 was the agent's fixed limit);
// - monthly_quota_gb: traffic per calendar month (UTC), both directions, in GB of 10^9 bytes (null: none);
// - over_quota: past the quota the port is throttled to over_quota_mbps, or blocked, until the next month starts.
// port_traffic_months counts each port's bytes per month in the statement that records a traffic batch, so the
// desired state and the customer's pages read one row instead of summing samples. warned_at (80 %) and reached_at
// (100 %) are set once per month by a conditional update, which is what makes each notification go out once; a
// reached_at set announces the port's customer on 'cellport_ports', and the host's desired state is recomputed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tariffs
      add column bandwidth_mbps int check (bandwidth_mbps between 1 and 100000),
      add column max_connections int not null default 200 check (max_connections between 1 and 100000),
      add column monthly_quota_gb int check (monthly_quota_gb between 1 and 1000000),
      add column over_quota text not null default 'block' check (over_quota in ('throttle', 'block')),
      add column over_quota_mbps int check (over_quota_mbps between 1 and 100000),
      add constraint tariffs_throttle_rate check (over_quota <> 'throttle' or over_quota_mbps is not null);

    create table port_traffic_months (
      port_id uuid not null references ports(id) on delete cascade,
      -- The first day of the calendar month (UTC) the bytes were moved in.
      month date not null,
      bytes bigint not null default 0 check (bytes >= 0),
      warned_at timestamptz,
      reached_at timestamptz,
      primary key (port_id, month)
    );

    create function cellport_port_quota_reached() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cellport_ports', 'u:' || (select user_id::text from ports where id = new.port_id));
      return null;
    end $$;
    create trigger port_quota_reached_insert after insert on port_traffic_months for each row
      when (new.reached_at is not null) execute function cellport_port_quota_reached();
    create trigger port_quota_reached_update after update on port_traffic_months for each row
      when ((old.reached_at is null) <> (new.reached_at is null)) execute function cellport_port_quota_reached();
  `.execute(db);
}
