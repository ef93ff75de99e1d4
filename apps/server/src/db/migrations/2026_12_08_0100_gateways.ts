import { sql, type Kysely } from 'kysely';

// Gateways (issue 18, docs/decisions/031-gateway.md): public relays for hosts behind NAT. A host is direct
// (gateway_id null: customers reach its address) or pinned to one gateway (customers reach the gateway's public
// host on the same port numbers; the host's agent keeps one link to the gateway). host_gateway_links is what agents
// report of their link, and the fencing epoch: each agent connection of a host gets a higher one, and a gateway takes
// a link only from the highest it has seen. It is kept apart from hosts, whose updates announce every customer's
// port list. A change of a gateway's addresses is announced like a host's (Your Proxies shows them; agents dial them).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table gateways (
      id uuid primary key default gen_random_uuid(),
      name text not null unique check (length(name) between 1 and 64),
      public_host text not null check (length(public_host) between 1 and 253),
      link_url text not null check (length(link_url) between 1 and 300),
      created_at timestamptz not null default now()
    );
    alter table hosts add column gateway_id uuid references gateways(id);
    create index hosts_gateway on hosts(gateway_id) where gateway_id is not null;

    create table host_gateway_links (
      host_id uuid primary key references hosts(id) on delete cascade,
      epoch bigint not null default 0,
      state text not null default 'down' check (state in ('up', 'connecting', 'down', 'refused')),
      problem text check (length(problem) <= 300),
      changed_at timestamptz not null default now()
    );

    drop trigger ports_list_hosts_update on hosts;
    create trigger ports_list_hosts_update after update on hosts for each row
      when ((old.name, old.address, old.ingest_key_hash, old.gateway_id)
        is distinct from (new.name, new.address, new.ingest_key_hash, new.gateway_id))
      execute function cellport_ports_catalog_changed();
    create trigger ports_list_gateways after update or delete on gateways
      for each statement execute function cellport_ports_catalog_changed();
  `.execute(db);
}
