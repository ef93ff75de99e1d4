import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';

/** The port and its modem as a move reads them (the port's row locked). */
export interface PortOnModem {
  id: string; user_id: string; name: string; default_number: number | null; status: 'active' | 'expired' | 'released'; expires_at: Date;
  modem_id: string; imei: string; host_id: string; country_id: string; carrier_id: string; region_id: string | null;
  is_shared: boolean; rotation_interval: number | null; health: 'online' | 'degraded' | 'offline';
  health_changed_at: Date | null; retired: boolean;
  /** The port's own listening numbers (decision 045); null: a shared port sold before them. */
  http_port: number | null; socks_port: number | null;
  /** Where the customer connects now: the gateway's public host, else the host's address. */
  address: string; gateway_id: string | null;
}

/**
 * The replacements' queries: the planner's one statement, the queue (`port_replacements`), the moved port's modem and
 * numbers, and the old modem's maintenance. The free modem itself is taken by the purchase path's stock rules
 * (PurchasesRepository).
 */
export class ReplacementRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * The ports that need a move now, in one statement: those whose modem has been offline since before `cutoff`, and
   * the queued ones for which a modem is now free (each part at most `limit`).
   */
  async portsToMove(cutoff: Date, limit: number): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`
      (select p.id from ports p join modems m on m.id = p.modem_id
        where p.status <> 'released' and m.health = 'offline' and not m.online and not m.retired
          and m.health_changed_at <= ${cutoff}
          and not exists (select 1 from port_replacements r where r.port_id = p.id and r.queued_since is not null)
        limit ${limit})
      union
      (select r.port_id from port_replacements r join ports p on p.id = r.port_id join modems o on o.id = p.modem_id
        where r.queued_since is not null
          and exists (select 1 from modems m
            where m.country_id = o.country_id and m.carrier_id = o.carrier_id and m.is_shared = o.is_shared
              and (o.region_id is null or m.region_id = o.region_id)
              and (not o.is_shared or m.rotation_interval = o.rotation_interval)
              and m.online and m.health = 'online' and not m.retired and m.maintenance_since is null
              and m.used_slots < m.capacity and m.id <> o.id)
        limit ${limit})`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /** The port and its modem, the port's row locked; only the customer's own when `userId` is given. */
  lockPort(tx: Tx, portId: string, userId?: string): Promise<PortOnModem | undefined> {
    let q = tx.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
      .innerJoin('hosts as h', 'h.id', 'm.host_id').leftJoin('gateways as g', 'g.id', 'h.gateway_id')
      .select([
        'p.id', 'p.user_id', 'p.name', 'p.default_number', 'p.status', 'p.expires_at', 'p.modem_id', 'm.imei', 'm.host_id', 'm.country_id',
        'm.carrier_id', 'm.region_id', 'm.is_shared', 'm.rotation_interval', 'm.health', 'm.health_changed_at', 'm.retired',
        'p.http_port', 'p.socks_port', 'h.gateway_id',
      ])
      .select((eb) => eb.fn.coalesce('g.public_host', 'h.address').as('address'))
      .where('p.id', '=', portId);
    if (userId) q = q.where('p.user_id', '=', userId);
    return q.forUpdate('p').executeTakeFirst();
  }

  /** The port's place in the queue, locked. */
  lockQueueEntry(tx: Tx, portId: string) {
    return tx.selectFrom('port_replacements').select(['queued_since', 'queued_reason'])
      .where('port_id', '=', portId).forUpdate().executeTakeFirst();
  }

  /** When the customer last asked for another modem for the port, locked. */
  lockCustomerRequest(tx: Tx, portId: string) {
    return tx.selectFrom('port_replacements').select('customer_requested_at')
      .where('port_id', '=', portId).forUpdate().executeTakeFirst();
  }

  async recordCustomerRequest(tx: Tx, portId: string, at: Date): Promise<void> {
    await tx.insertInto('port_replacements').values({ port_id: portId, customer_requested_at: at })
      .onConflict((oc) => oc.column('port_id').doUpdateSet({ customer_requested_at: at })).execute();
  }

  async unqueue(tx: Tx, portId: string): Promise<void> {
    await tx.updateTable('port_replacements').set({ queued_since: null, queued_reason: null, queued_told: false })
      .where('port_id', '=', portId).execute();
  }

  /** Whether the port already waits and its customer was told. */
  queueEntry(tx: Tx, portId: string) {
    return tx.selectFrom('port_replacements').select(['queued_since', 'queued_told'])
      .where('port_id', '=', portId).executeTakeFirst();
  }

  /** Puts the port in the queue (a port already in it keeps its place and its first reason). */
  async enqueue(tx: Tx, portId: string, reason: 'offline' | 'customer'): Promise<void> {
    await tx.insertInto('port_replacements')
      .values({ port_id: portId, queued_since: sql`now()`, queued_reason: reason, queued_told: true })
      .onConflict((oc) => oc.column('port_id').doUpdateSet({
        queued_since: sql`coalesce(port_replacements.queued_since, now())`,
        queued_reason: sql`coalesce(port_replacements.queued_reason, excluded.queued_reason)`,
        queued_told: true,
      })).execute();
  }

  /** Ports waiting for a free modem. */
  async queuedCount(q: Database | Tx = this.db): Promise<number> {
    const { waiting } = await q.selectFrom('port_replacements').select((eb) => eb.fn.countAll<string>().as('waiting'))
      .where('queued_since', 'is not', null).executeTakeFirstOrThrow();
    return Number(waiting);
  }

  async moveToModem(tx: Tx, portId: string, modemId: string): Promise<void> {
    await tx.updateTable('ports').set({ modem_id: modemId }).where('id', '=', portId).execute();
  }

  /** The modem's host and where a customer reaches it (the gateway's public host, else the host's address). */
  modemHost(tx: Tx, modemId: string) {
    return tx.selectFrom('modems as m').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .leftJoin('gateways as g', 'g.id', 'h.gateway_id')
      .select(['m.host_id']).select((eb) => eb.fn.coalesce('g.public_host', 'h.address').as('address'))
      .where('m.id', '=', modemId).executeTakeFirstOrThrow();
  }

  /** The modem as the audit entry and the notification name it. */
  modemForNotice(tx: Tx, modemId: string) {
    return tx.selectFrom('modems as m').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .leftJoin('gateways as g', 'g.id', 'h.gateway_id')
      .select(['m.id', 'm.imei', 'm.ext_ip', 'h.name as host_name'])
      .select((eb) => eb.fn.coalesce('g.public_host', 'h.address').as('address'))
      .where('m.id', '=', modemId).executeTakeFirstOrThrow();
  }

  /** Whether `numbers` are in use on `hostId` or behind its gateway, by anything but the port itself. */
  async portNumbersTaken(tx: Tx, hostId: string, numbers: [number, number], portId: string): Promise<boolean> {
    const { rows } = await sql<{ taken: boolean }>`
      select cellport_port_numbers_taken(${hostId}::uuid, array[${numbers[0]}, ${numbers[1]}]::integer[], ${portId}::uuid) as taken`.execute(tx);
    return rows[0]!.taken;
  }

  /** Two numbers no modem and no live port of the farm uses. */
  async freePortNumbers(tx: Tx): Promise<[number, number]> {
    const { rows } = await sql<{ pair: number[] }>`select cellport_free_port_numbers() as pair`.execute(tx);
    return rows[0]!.pair as [number, number];
  }

  async setPortNumbers(tx: Tx, portId: string, http: number, socks: number): Promise<void> {
    await tx.updateTable('ports').set({ http_port: http, socks_port: socks }).where('id', '=', portId).execute();
  }

  /** The port's old modem gives its slot back and, when `maintenanceReason` is given, goes into maintenance. */
  async releaseOldModem(tx: Tx, modemId: string, maintenanceReason: string | null): Promise<void> {
    await tx.updateTable('modems').set({
      used_slots: sql`greatest(used_slots - 1, 0)`,
      ...(maintenanceReason !== null ? {
        maintenance_since: sql`coalesce(maintenance_since, now())`,
        maintenance_reason: sql`coalesce(maintenance_reason, ${maintenanceReason})`,
      } : {}),
    }).where('id', '=', modemId).execute();
  }

  /** Counts the move and takes the port out of the queue. */
  async recordMove(tx: Tx, portId: string): Promise<void> {
    await tx.insertInto('port_replacements').values({ port_id: portId, moves: 1, last_moved_at: sql`now()` })
      .onConflict((oc) => oc.column('port_id').doUpdateSet({
        queued_since: null, queued_reason: null, queued_told: false,
        moves: sql`port_replacements.moves + 1`, last_moved_at: sql`now()`,
      })).execute();
  }

  /** The modem's maintenance, locked. */
  lockMaintenance(tx: Tx, modemId: string) {
    return tx.selectFrom('modems').select(['id', 'imei', 'maintenance_since', 'maintenance_reason'])
      .where('id', '=', modemId).forUpdate().executeTakeFirst();
  }

  async endMaintenance(tx: Tx, modemId: string): Promise<void> {
    await tx.updateTable('modems').set({ maintenance_since: null, maintenance_reason: null }).where('id', '=', modemId).execute();
  }
}
