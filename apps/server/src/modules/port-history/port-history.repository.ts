import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Health, HealthChange } from './uptime.js';

/** The port (the customer's, not released), its modem, and since when it has been on that modem. */
export interface PortOnModem { modemId: string; health: Health; since: Date }

/** Reads a port's modem and the modem's health and IP logs (written by triggers, migration 2026_12_10_0600). */
export class PortHistoryRepository {
  constructor(private readonly db: Database) {}

  async portOnModem(userId: string, portId: string): Promise<PortOnModem | null> {
    const row = await this.db.selectFrom('ports').innerJoin('modems', 'modems.id', 'ports.modem_id')
      .leftJoin('port_replacements', 'port_replacements.port_id', 'ports.id')
      .select(['ports.modem_id', 'modems.health',
        // A replacement moved the port to this modem: its history starts there.
        sql<Date>`greatest(ports.created_at, coalesce(port_replacements.last_moved_at, ports.created_at))`.as('since')])
      .where('ports.id', '=', portId).where('ports.user_id', '=', userId).where('ports.status', '<>', 'released')
      .executeTakeFirst();
    return row ? { modemId: row.modem_id, health: row.health, since: new Date(row.since) } : null;
  }

  /** The modem's health changes after `after` and the last one before it, in time order. */
  async healthChanges(modemId: string, after: Date): Promise<HealthChange[]> {
    const [inside, before] = await Promise.all([
      this.db.selectFrom('modem_health_history').select(['at', 'health_from', 'health_to'])
        .where('modem_id', '=', modemId).where('at', '>', after).orderBy('at').execute(),
      this.db.selectFrom('modem_health_history').select(['at', 'health_from', 'health_to'])
        .where('modem_id', '=', modemId).where('at', '<=', after).orderBy('at', 'desc').limit(1).execute(),
    ]);
    return [...before, ...inside].map((r) => ({ at: new Date(r.at), from: r.health_from, to: r.health_to }));
  }

  /** The modem's IPs taken since `since`, newest first. */
  async ips(modemId: string, since: Date, limit: number): Promise<Array<{ ip: string; at: Date }>> {
    const rows = await this.db.selectFrom('modem_ip_history').select(['ip', 'at'])
      .where('modem_id', '=', modemId).where('at', '>=', since).orderBy('at', 'desc').limit(limit).execute();
    return rows.map((r) => ({ ip: r.ip, at: new Date(r.at) }));
  }
}
