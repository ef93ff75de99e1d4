import { sql, type Kysely } from 'kysely';

// Announces every change that a customer's port list (GET /api/v1/modems) shows, on the channel 'cellport_ports',
// so each instance can keep those lists in memory (modules/ports/ports-list-cache.ts). Triggers, not calls in the
// code, because ports and modems are written from many places (purchases, renewals, jobs, the rotation driver,
// the console, the host agent) and a forgotten call would show a customer stale credentials. PostgreSQL delivers
// a NOTIFY only when its transaction commits. Payloads:
//   'u:<user id>,<user id>…'  these customers' ports changed (inserted, updated, deleted)
//   'm:<IMEI>'                a modem's shown fields changed (IP, status, ports…), whoever is on it; its IMEI
//                             before the change, as the lists shown so far carry it
//   '*'                       a host or the catalog changed (rare): every list is stale
// used_slots, which every purchase moves, is not shown, so a modem update that only moves it announces nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function cellport_ports_changed() returns trigger language plpgsql as $$
    declare users text;
    begin
      if tg_op = 'INSERT' then
        select string_agg(distinct user_id::text, ',') into users from new_rows;
      elsif tg_op = 'DELETE' then
        select string_agg(distinct user_id::text, ',') into users from old_rows;
      else
        select string_agg(distinct u::text, ',') into users
          from (select user_id as u from new_rows union select user_id from old_rows) changed;
      end if;
      -- NOTIFY payloads must stay under 8000 bytes: past ~190 customers, everyone's list is dropped instead.
      if users is not null then
        perform pg_notify('cellport_ports', case when length(users) > 7000 then '*' else 'u:' || users end);
      end if;
      return null;
    end $$;
    create trigger ports_list_insert after insert on ports referencing new table as new_rows
      for each statement execute function cellport_ports_changed();
    create trigger ports_list_update after update on ports referencing old table as old_rows new table as new_rows
      for each statement execute function cellport_ports_changed();
    create trigger ports_list_delete after delete on ports referencing old table as old_rows
      for each statement execute function cellport_ports_changed();

    create function cellport_modem_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cellport_ports', 'm:' || old.imei);
      return null;
    end $$;
    -- A modem with ports cannot be deleted (foreign key), so only updates matter.
    create trigger ports_list_modem after update on modems for each row
      when ((
        old.imei, old.host_id, old.http_port, old.socks_port, old.ext_ip, old.apply_status, old.online,
        old.country_id, old.carrier_id, old.region_id, old.rotation_interval
      ) is distinct from (
        new.imei, new.host_id, new.http_port, new.socks_port, new.ext_ip, new.apply_status, new.online,
        new.country_id, new.carrier_id, new.region_id, new.rotation_interval
      ))
      execute function cellport_modem_changed();

    create function cellport_ports_catalog_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cellport_ports', '*');
      return null;
    end $$;
    create trigger ports_list_hosts after update or delete on hosts
      for each statement execute function cellport_ports_catalog_changed();
    create trigger ports_list_tariffs after update or delete on tariffs
      for each statement execute function cellport_ports_catalog_changed();
    create trigger ports_list_countries after update or delete on countries
      for each statement execute function cellport_ports_catalog_changed();
    create trigger ports_list_carriers after update or delete on carriers
      for each statement execute function cellport_ports_catalog_changed();
    create trigger ports_list_regions after update or delete on regions
      for each statement execute function cellport_ports_catalog_changed();
  `.execute(db);
}
