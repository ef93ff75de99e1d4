import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** A host's desired state's rows: its name, key and gateway; its modems with their ports (host-state.ts builds it). */
export class HostStateRepository {
  constructor(private readonly db: Database) {}

  /** These hosts (those that exist) with their key hash and the gateway each is pinned to. */
  async hosts(hostIds: string[]) {
    return this.db.selectFrom('hosts as h').leftJoin('gateways as g', 'g.id', 'h.gateway_id')
      .select(['h.id', 'h.name', 'h.ingest_key_hash', 'g.id as gateway_id', 'g.link_url']).where('h.id', 'in', hostIds).execute();
  }

  /**
   * The non-retired modems of these hosts, each with every port of it not released (one row per port; a modem
   * without one: a row with no port), the port's customer, tariff and bytes in `month` (its first day, YYYY-MM-DD).
   */
  async modemsWithPorts(hostIds: string[], month: string) {
    return this.db.selectFrom('modems as m')
      .leftJoin('ports as p', (j) => j.onRef('p.modem_id', '=', 'm.id').on('p.status', '<>', 'released'))
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .leftJoin('tariffs as t', 't.id', 'p.tariff_id')
      // A date, not a timestamp: compared with a timestamptz the column would be read in the session's time zone.
      .leftJoin('port_traffic_months as q', (j) => j.onRef('q.port_id', '=', 'p.id').on('q.month', '=', sql<Date>`${month}::date`))
      .select([
        'm.host_id', 'm.id as modem_id', 'm.imei', 'm.http_port', 'm.socks_port', 'm.ext_ip', 'm.driver', 'm.is_shared',
        'p.id as port_id', 'p.proxy_login', 'p.proxy_password', 'p.whitelist', 'p.status', 'p.expires_at', 'p.suspended_at',
        'u.is_active', 't.bandwidth_mbps', 't.max_connections', 't.monthly_quota_gb', 't.over_quota', 't.over_quota_mbps',
        'q.bytes as month_bytes', 'p.http_port as port_http', 'p.socks_port as port_socks', 'p.fingerprint', 'm.fingerprint_default as modem_fingerprint', 't.fingerprint_default as tariff_fingerprint',
      ])
      .where('m.host_id', 'in', hostIds).where('m.retired', '=', false)
      .orderBy('m.imei').orderBy('p.id').execute();
  }

  /**
   * What the host's agent last reported serving (written by its heartbeats on whichever instance holds its
   * connection): the desired-state version (hosts.state_version; null: none reported) and each port's digest
   * (hosts.served_ports; null: an agent that does not report them); undefined: no such host.
   */
  async reportedServing(hostId: string): Promise<{ version: string | null; ports: Record<string, string> | null } | undefined> {
    const row = await this.db.selectFrom('hosts').select(['state_version', 'served_ports']).where('id', '=', hostId).executeTakeFirst();
    return row && { version: row.state_version, ports: row.served_ports };
  }
}
