import type { ApplyStatus } from '@cellport/shared/schemas/catalog';
import type { Heartbeat, HostModemInfo } from '@cellport/shared/schemas/host-protocol';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** A modem whose `online` or `ext_ip` a write changed: the customers on it hear of it (was_online: before the write). */
export interface ModemChange {
  id: string; imei: string; apply_status: ApplyStatus; online: boolean; ext_ip: string; was_online: boolean;
  /** Taken offline by the sweep: how long its host had not been heard from, in seconds. */
  silent_seconds?: number;
}

/**
 * After a rotation the agent's next heartbeat may still carry the IP from before (it was sent first): the IP a
 * heartbeat reports replaces the recorded one only while no rotation is under way and none ended this recently.
 */
const ROTATION_QUIET_SECONDS = 30;

/** A modem its host's agent no longer reports is offline for operators too, with why (since now, if it was not). */
const offlineHealth = (reason: string) => sql`health = 'offline', health_reason = ${reason},
  health_changed_at = case when m.health <> 'offline' then now() else m.health_changed_at end`;

/** The hosts' contact with their agents: heartbeats, silence, disconnection; and whose agent a rotation goes to. */
export class HostsRepository {
  constructor(private readonly db: Database) {}

  /** The host whose agent serves a modem, and the modem's IMEI there (a rotation is relayed to that agent). */
  modemHost(modemId: string): Promise<{ host_id: string; imei: string } | undefined> {
    return this.db.selectFrom('modems').select(['host_id', 'imei']).where('id', '=', modemId).executeTakeFirst();
  }

  /** The agent connected: the host is seen now. Returns that moment (to the millisecond, as compared later). */
  async touch(hostId: string): Promise<Date | null> {
    const row = await this.db.updateTable('hosts').set({ last_seen_at: sql`date_trunc('milliseconds', now())` })
      .where('id', '=', hostId).returning('last_seen_at').executeTakeFirst();
    return row?.last_seen_at ?? null;
  }

  /**
   * One statement per heartbeat: the host's last contact, version and start time, and for each reported modem of
   * this host what changed of online (any state but 'offline'), ext_ip, open connections and problem. A modem row
   * that did not change is not written. The same statement keeps the host's modem reports (`inventory`): a report
   * that changed is written, an unchanged one is left alone, and those of modems no longer reported (or all of them,
   * from an agent without a modems file) are removed. Returns the contact time and the modems whose online or
   * ext_ip changed.
   */
  async heartbeat(hostId: string, hb: Heartbeat): Promise<{ lastSeen: Date | null; changed: ModemChange[] }> {
    const reported = hb.modems.map((m) => ({
      imei: m.imei, online: m.state !== 'offline', rotating: m.state === 'rotating', ext_ip: m.extIp,
      connections: m.connections, problem: m.problem ?? null,
      // An agent that does not check health (older ones, the demo's) has it from the run state.
      health: m.health?.state ?? (m.state === 'offline' ? 'offline' : 'online'),
      health_reason: (m.health ? m.health.reason : m.state === 'offline' ? m.problem : undefined) ?? null,
    }));
    const inventory = inventoryRows(hb.inventory);
    const servedPorts = hb.ports ? JSON.stringify(Object.fromEntries(hb.ports)) : null;
    const { rows } = await sql<ModemChange & { last_seen_at: Date | null; was_online: boolean; was_ext_ip: string }>`
      with host as (
        update hosts set
          last_seen_at = date_trunc('milliseconds', now()),
          agent_version = ${hb.agentVersion},
          state_version = ${hb.stateVersion},
          -- What each port serves (issue 30), rewritten only when it changed (an unchanged value keeps its storage).
          served_ports = case when served_ports is not distinct from ${servedPorts}::jsonb then served_ports else ${servedPorts}::jsonb end,
          -- Issue 30: what the agent can do of fingerprint presets; absent (an older agent): null, it cannot. A change
          -- announces (trigger of 2026_12_11_0700), so port lists show it; the same report again changes nothing.
          fingerprint = ${hb.fingerprint ? JSON.stringify(hb.fingerprint) : null}::jsonb,
          agent_started_at = case
            when agent_started_at is null
              or abs(extract(epoch from agent_started_at - (now() - make_interval(secs => ${hb.uptimeSeconds})))) > 5
            then now() - make_interval(secs => ${hb.uptimeSeconds}) else agent_started_at end
        where id = ${hostId}
        returning id, last_seen_at
      ), v as (
        select * from jsonb_to_recordset(${JSON.stringify(reported)}::jsonb)
          as v(imei text, online boolean, rotating boolean, ext_ip text, connections int, problem text, health text, health_reason text)
      ), w as (
        select m.id, v.online, v.connections, v.problem, m.online as was_online, m.ext_ip as was_ext_ip, m.connections as was_connections,
               m.problem as was_problem, v.health, v.health_reason, m.health as was_health, m.health_reason as was_health_reason,
               case when v.rotating or v.ext_ip = '' or m.apply_status in ('rotating', 'applying')
                      or coalesce(m.last_rotated_at > now() - make_interval(secs => ${ROTATION_QUIET_SECONDS}), false)
                    then m.ext_ip else v.ext_ip end as ext_ip
        from v join modems m on m.host_id = ${hostId} and m.imei = v.imei
      ), inv as (
        select * from jsonb_to_recordset(${JSON.stringify(inventory)}::jsonb) as inv(imei text, report jsonb)
      ), inv_written as (
        insert into host_modem_reports as r (host_id, imei, report)
        select h.id, inv.imei, inv.report from inv cross join host h
        on conflict (host_id, imei) do update set report = excluded.report, changed_at = now()
          where r.report is distinct from excluded.report
        returning 1
      ), inv_gone as (
        delete from host_modem_reports r
        where r.host_id = ${hostId} and not exists (select 1 from inv where inv.imei = r.imei)
        returning 1
      ), changed as (
        update modems m set online = w.online, ext_ip = w.ext_ip, connections = w.connections, problem = w.problem,
          health = w.health, health_reason = w.health_reason,
          health_changed_at = case when w.health is distinct from w.was_health then now() else m.health_changed_at end
        from w
        where m.id = w.id
          and (w.was_online, w.was_ext_ip, w.was_connections, w.was_problem, w.was_health, w.was_health_reason)
            is distinct from (w.online, w.ext_ip, w.connections, w.problem, w.health, w.health_reason)
        returning m.id, m.imei, m.apply_status, m.online, m.ext_ip, w.was_online, w.was_ext_ip
      )
      select null::timestamptz as last_seen_at, c.id, c.imei, c.apply_status, c.online, c.ext_ip, c.was_online, c.was_ext_ip
      from changed c
      union all
      select h.last_seen_at, null, null, null, null, null, null, null from host h`.execute(this.db);
    let lastSeen: Date | null = null;
    const changed: ModemChange[] = [];
    for (const r of rows) {
      if (r.id === null) lastSeen = r.last_seen_at ? new Date(r.last_seen_at) : null;
      else if (r.online !== r.was_online || r.ext_ip !== r.was_ext_ip) {
        changed.push({ id: r.id, imei: r.imei, apply_status: r.apply_status, online: r.online, ext_ip: r.ext_ip, was_online: r.was_online });
      }
    }
    return { lastSeen, changed };
  }

  /** Hosts silent for this long are offline with their modems. Returns the modems it took offline. */
  async sweepSilent(offlineAfterSeconds: number): Promise<ModemChange[]> {
    const { rows } = await sql<ModemChange>`
      update modems m set online = false, connections = 0, ${offlineHealth('the host\'s agent is silent')}
      from hosts h
      where h.id = m.host_id and m.online and h.last_seen_at < now() - make_interval(secs => ${offlineAfterSeconds})
      returning m.id, m.imei, m.apply_status, m.online, m.ext_ip, true as was_online,
        extract(epoch from now() - h.last_seen_at)::float8 as silent_seconds`.execute(this.db);
    return rows;
  }

  /**
   * The last connection of a host on this instance closed: its modems are offline at once (a rotation then fails
   * without waiting), unless the host was heard since `lastSeen` — it reconnected, here or to another instance.
   */
  async offlineAfterDisconnect(hostId: string, lastSeen: Date | null): Promise<ModemChange[]> {
    const { rows } = await sql<ModemChange>`
      update modems m set online = false, connections = 0, ${offlineHealth('the host\'s agent disconnected')}
      from hosts h
      where h.id = m.host_id and m.host_id = ${hostId} and m.online
        and (h.last_seen_at is null or ${lastSeen}::timestamptz is null or h.last_seen_at <= ${lastSeen}::timestamptz)
      returning m.id, m.imei, m.apply_status, m.online, m.ext_ip, true as was_online`.execute(this.db);
    return rows;
  }

  /** The customers with a port on each of these modems (who hear of a change to it). */
  async customersOn(modemIds: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    if (modemIds.length === 0) return map;
    const rows = await this.db.selectFrom('ports').select(['modem_id', 'user_id']).distinct()
      .where('modem_id', 'in', modemIds).where('status', '<>', 'released').execute();
    for (const r of rows) map.set(r.modem_id, [...(map.get(r.modem_id) ?? []), r.user_id]);
    return map;
  }
}

/**
 * The heartbeat's inventory as rows of host_modem_reports: one per IMEI (the last entry wins; the upsert may not touch
 * a row twice), the report without the IMEI. jsonb compares by content, so an unchanged report is not written.
 */
export function inventoryRows(inventory: HostModemInfo[] | undefined): Array<{ imei: string; report: Omit<HostModemInfo, 'imei'> }> {
  const byImei = new Map<string, Omit<HostModemInfo, 'imei'>>();
  for (const { imei, ...report } of inventory ?? []) byImei.set(imei, report);
  return [...byImei].map(([imei, report]) => ({ imei, report }));
}
