import { sql, type Kysely } from 'kysely';

// Uptime and IP history per port (issue 27, item 9). Two small logs, written by triggers on modems so that every
// path that changes a modem's health or IP (heartbeats, health checks, rotations, the console) records it without
// knowing of them:
// - modem_health_history: each change of `health`, with the state before and after, for uptime over 24 h / 7 d / 30 d;
// - modem_ip_history: each new external IP (a rotation, a reconnect).
// Each insert also drops that modem's rows older than 35 days (one indexed delete), so the logs stay the size of the
// longest window shown.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table modem_health_history (
      modem_id uuid not null references modems(id) on delete cascade,
      at timestamptz not null default now(),
      health_from text not null,
      health_to text not null
    );
    create index modem_health_history_by_modem on modem_health_history (modem_id, at);

    create table modem_ip_history (
      modem_id uuid not null references modems(id) on delete cascade,
      at timestamptz not null default now(),
      ip text not null
    );
    create index modem_ip_history_by_modem on modem_ip_history (modem_id, at);

    create function cellport_modem_health_history() returns trigger language plpgsql as $$
    begin
      insert into modem_health_history (modem_id, health_from, health_to) values (new.id, old.health, new.health);
      delete from modem_health_history where modem_id = new.id and at < now() - interval '35 days';
      return null;
    end $$;
    create trigger modem_health_history after update of health on modems for each row
      when (old.health is distinct from new.health) execute function cellport_modem_health_history();

    create function cellport_modem_ip_history() returns trigger language plpgsql as $$
    begin
      insert into modem_ip_history (modem_id, ip) values (new.id, new.ext_ip);
      delete from modem_ip_history where modem_id = new.id and at < now() - interval '35 days';
      return null;
    end $$;
    create trigger modem_ip_history after update of ext_ip on modems for each row
      when (old.ext_ip is distinct from new.ext_ip) execute function cellport_modem_ip_history();
  `.execute(db);
}
