import { sql, type Kysely } from 'kysely';

// Listening ports belong to the port, not to its modem (issue 28, item 10; docs/decisions/045-ports-own-their-listeners.md):
// `ports.http_port` / `socks_port` are the numbers the customer connects to, kept when the port moves to another
// modem or host. Existing ports keep the address their customers already use:
// - a dedicated port (one customer per modem) takes its modem's numbers, which is where it is served today;
// - a shared port keeps none (null): its co-tenants share the modem's two numbers, which cannot be one port's own, so
//   it is served on the modem's numbers, as before, until its first move gives it numbers of its own.
// New ports get theirs from a trigger, whatever inserts them (a purchase's one statement, a seed, a test):
// - a dedicated port takes its modem's numbers unless a port that moved there holds them (an agent one version behind
//   serves it there too);
// - otherwise (shared, or taken) the lowest pair from 30000 (ADOPTED_MODEM_PORT_BASE) that no modem and no live port of
//   the whole farm uses, so that a later move to any host finds them free; these allocations wait for each other (an
//   advisory lock), which only purchases of shared ports and of such modems meet.
// `cellport_port_numbers_taken` says whether a number pair is in use where a port would serve it (the host and the
// other hosts behind its gateway, which listens on the same numbers for all of them): by another live port, or by a
// modem that still listens on its own numbers (one with shared ports that have none of their own).
// A port's row already announces every change (decision 015), so the agent's state follows without a new trigger.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table ports add column http_port integer check (http_port between 1 and 65535);
    alter table ports add column socks_port integer check (socks_port between 1 and 65535);
    alter table ports add constraint ports_numbers_together check ((http_port is null and socks_port is null) or http_port <> socks_port);
    update ports p set http_port = m.http_port, socks_port = m.socks_port
      from modems m where m.id = p.modem_id and not p.is_shared and p.status <> 'released';
    create index ports_http_port_idx on ports (http_port) where status <> 'released' and http_port is not null;
    create index ports_socks_port_idx on ports (socks_port) where status <> 'released' and socks_port is not null;

    create function cellport_port_numbers_taken(target_host uuid, numbers integer[], except_port uuid) returns boolean
    language sql stable as $fn$
      with scope as (
        select target_host as id
        union select peer.id from hosts self join hosts peer on peer.gateway_id = self.gateway_id where self.id = target_host
      )
      select exists (
        select 1 from ports p join modems m on m.id = p.modem_id
        where m.host_id in (select id from scope) and p.status <> 'released' and p.id is distinct from except_port
          and (p.http_port = any(numbers) or p.socks_port = any(numbers))
      ) or exists (
        select 1 from modems m
        where m.host_id in (select id from scope) and not m.retired
          and (m.http_port = any(numbers) or m.socks_port = any(numbers))
          and exists (select 1 from ports lp where lp.modem_id = m.id and lp.status <> 'released' and lp.http_port is null
                        and lp.id is distinct from except_port)
      )
    $fn$;

    create function cellport_free_port_numbers() returns integer[]
    language plpgsql volatile as $fn$
    declare
      found integer;
    begin
      perform pg_advisory_xact_lock(hashtext('cellport:port-numbers'));
      with used as (
        select http_port as n from modems union select socks_port from modems
        union select http_port from ports where status <> 'released' and http_port is not null
        union select socks_port from ports where status <> 'released' and socks_port is not null
      )
      select c into found from generate_series(30000, 65533, 2) c
      where not exists (select 1 from used where used.n in (c, c + 1)) order by c limit 1;
      if found is null then raise exception 'no free listening port numbers left' using errcode = 'P0001'; end if;
      return array[found, found + 1];
    end
    $fn$;

    create function cellport_port_numbers() returns trigger
    language plpgsql as $fn$
    declare
      m record;
      pair integer[];
    begin
      if new.http_port is not null then return new; end if;
      select host_id, http_port, socks_port into m from modems where id = new.modem_id;
      if not new.is_shared and not cellport_port_numbers_taken(m.host_id, array[m.http_port, m.socks_port], new.id) then
        new.http_port := m.http_port;
        new.socks_port := m.socks_port;
        return new;
      end if;
      pair := cellport_free_port_numbers();
      new.http_port := pair[1];
      new.socks_port := pair[2];
      return new;
    end
    $fn$;
    create trigger ports_own_numbers before insert on ports for each row execute function cellport_port_numbers();
  `.execute(db);
}
