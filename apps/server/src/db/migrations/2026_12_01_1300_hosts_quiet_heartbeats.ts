import { sql, type Kysely } from 'kysely';

// The agent's heartbeats write hosts.last_seen_at (and agent_version, agent_started_at) every 10 s per host. The
// hosts trigger of 2026_11_30_1000_ports_list_changes announced every update of a host as '*' (every customer's
// kept port list dropped, every connected agent's state recomputed), so heartbeats would have emptied those caches
// all the time. Now a host update is announced only when something a customer or an agent depends on changed: its
// name, its address (shown on Your Proxies), or its key (a connected agent whose key was replaced is disconnected).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger ports_list_hosts on hosts;
    create trigger ports_list_hosts_update after update on hosts for each row
      when ((old.name, old.address, old.ingest_key_hash) is distinct from (new.name, new.address, new.ingest_key_hash))
      execute function cellport_ports_catalog_changed();
    create trigger ports_list_hosts_delete after delete on hosts
      for each statement execute function cellport_ports_catalog_changed();
  `.execute(db);
}
