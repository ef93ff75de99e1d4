import { sql, type Kysely } from 'kysely';

// The proxy host agent (issue 11, docs/decisions/016-host-protocol.md).
// - hosts: the agent's last contact and version; a host silent for 60 s is offline with its modems.
// - modems: what the agent last reported (open connections, why it is offline) and which driver runs it.
// - ports: an operator's suspension (abuse handling); a suspended port refuses connections.
// - traffic: the agent reports per port (so shared modems get per-port traffic) in batches counted once: a batch id
//   is recorded in traffic_batches in the same statement as its samples, and samples of one port and interval add
//   up in one row (port_key). The older per-modem ingest keeps port_key = the zero uuid and its do-nothing replay.
// - users: deactivating or reactivating a customer changes their ports' access, so it is announced like a port
//   change (channel 'cellport_ports', payload 'u:<user id>').
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table hosts add column last_seen_at timestamptz;
    alter table hosts add column agent_version text;
    alter table hosts add column agent_started_at timestamptz;

    alter table modems add column connections integer not null default 0;
    alter table modems add column problem text;
    alter table modems add column driver text not null default 'simulated'
      check (driver in ('simulated', 'hilink', 'modemmanager'));

    alter table ports add column suspended_at timestamptz;

    alter table traffic_samples add column port_key uuid not null default '00000000-0000-0000-0000-000000000000';
    alter table traffic_samples drop constraint traffic_samples_pkey;
    alter table traffic_samples add primary key (host_id, imei, interval_start, port_key);

    create table traffic_batches (
      host_id uuid not null references hosts(id),
      batch_id uuid not null,
      received_at timestamptz not null default now(),
      primary key (host_id, batch_id)
    );
    create index traffic_batches_received on traffic_batches(received_at);

    create function cellport_user_access_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cellport_ports', 'u:' || new.id::text);
      return null;
    end $$;
    create trigger users_access_changed after update on users for each row
      when (old.is_active is distinct from new.is_active)
      execute function cellport_user_access_changed();
  `.execute(db);
}
