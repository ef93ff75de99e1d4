import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import { hostCapability, type HostModemInfo } from '@cellport/shared/schemas/host-protocol';
import { sql } from 'kysely';
import type { AdminModem, ModemsQuery } from '@cellport/shared/schemas/admin/modems';
import type { Database, Tx } from '../../db/database.js';
import { constraintOf, isUniqueViolation } from '../../db/pg-errors.js';
import type { ModemsTable } from '../../db/tables/ports.js';
import { AppError } from '../../lib/app-error.js';
import { cappedTotal, containsPattern, LIST_COUNT_CAP, type ListTotal } from '../../lib/console-lists.repository.js';
import type { Paging } from '../../lib/console-http.js';

type Q = Database | Tx;

/** What the console writes of a modem (add, edit, CSV import). */
export type ModemValues = Pick<ModemsTable, 'imei' | 'host_id' | 'http_port' | 'socks_port' | 'ext_ip' | 'country_id' | 'carrier_id'
  | 'region_id' | 'is_shared' | 'rotation_interval'> & { capacity: number; online: boolean };
/** An edit also says whether the modem is retired and its fingerprint default. */
export type ModemUpdate = ModemValues & { retired: boolean; fingerprint_default: FingerprintPresetId | null };
/** What a modem's audit entries record of it. */
const MODEM_AUDIT_COLUMNS = ['id', 'imei', 'host_id', 'http_port', 'socks_port', 'ext_ip', 'online', 'retired', 'country_id', 'carrier_id',
  'region_id', 'is_shared', 'capacity', 'used_slots', 'rotation_interval', 'fingerprint_default'] as const;

/** An IMEI or a host's port taken is an answer (409), not a 500. */
function rethrowModemConflict(error: unknown): never {
  if (isUniqueViolation(error)) {
    throw new AppError(constraintOf(error).includes('imei') ? 'IMEI_TAKEN' : 'MODEM_PORT_TAKEN', 409);
  }
  throw error;
}

/** The hosts whose listeners share numbers with `hostId`'s: itself and the others behind its gateway. */
const hostScope = (hostId: string) => sql<string>`(select ${hostId}::uuid union
  select peer.id from hosts self join hosts peer on peer.gateway_id = self.gateway_id where self.id = ${hostId}::uuid)`;

/**
 * The console's modems (the hosts domain's second repository, for the modems' side of the inventory): the filtered
 * list with who uses each modem, add, edit, delete, the CSV import's lookups, the numbers in use near a host, and
 * the stock report.
 */
export class ModemsRepository {
  /** countCap: the list's total counts at most this many modems (lib/console-lists.repository.ts, cappedTotal). */
  constructor(private readonly db: Database, private readonly countCap = LIST_COUNT_CAP) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async search(f: Omit<ModemsQuery, 'page' | 'pageSize'>, page: Paging): Promise<{ items: AdminModem[] } & ListTotal> {
    const base = () => {
      let q = this.db.selectFrom('modems as m');
      if (f.country_id) q = q.where('m.country_id', '=', f.country_id);
      if (f.carrier_id) q = q.where('m.carrier_id', '=', f.carrier_id);
      if (f.region_id) q = q.where('m.region_id', '=', f.region_id);
      if (f.host_id) q = q.where('m.host_id', '=', f.host_id);
      if (f.isShared) q = q.where('m.is_shared', '=', f.isShared === 'true');
      if (f.status === 'retired') q = q.where('m.retired', '=', true);
      else if (f.status) q = q.where('m.retired', '=', false);
      if (f.status === 'online') q = q.where('m.online', '=', true);
      if (f.status === 'offline') q = q.where('m.online', '=', false);
      if (f.status === 'free') q = q.where(sql<boolean>`m.used_slots < m.capacity`);
      if (f.status === 'used') q = q.where('m.used_slots', '>', 0);
      // One of its ports is in its host's last list of ports whose preset could not be applied (the heartbeat's).
      if (f.status === 'presetFailing') {
        q = q.where(sql<boolean>`exists (select 1 from ports p join hosts h on h.id = m.host_id
          cross join jsonb_array_elements(coalesce(h.fingerprint -> 'failing', '[]'::jsonb)) as f(item)
          where p.modem_id = m.id and p.status <> 'released' and f.item ->> 'portId' = p.id::text)`);
      }
      if (f.q) {
        const like = containsPattern(f.q.toLowerCase());
        q = q.where((eb) => eb.or([eb(sql`lower(m.imei)`, 'like', like), eb(sql`lower(m.ext_ip)`, 'like', like)]));
      }
      return q;
    };
    const [rows, total] = await Promise.all([
      base().select('m.id').orderBy('m.imei').limit(page.pageSize).offset(page.offset).execute(),
      cappedTotal(this.db, base(), this.countCap),
    ]);
    return { items: await this.byIds(rows.map((r) => r.id)), ...total };
  }

  /** The modems with these ids (in IMEI order), each with its current users. */
  async byIds(ids: string[], q: Q = this.db): Promise<AdminModem[]> {
    if (!ids.length) return [];
    const [modems, users] = await Promise.all([
      q.selectFrom('modems as m').innerJoin('hosts as h', 'h.id', 'm.host_id')
        .select(['m.id', 'm.imei', 'm.host_id', 'h.name as host_name', 'm.http_port', 'm.socks_port', 'm.ext_ip', 'm.online',
          'm.retired', 'm.apply_status', 'm.country_id', 'm.carrier_id', 'm.region_id', 'm.is_shared', 'm.capacity',
          'm.used_slots', 'm.rotation_interval', 'm.last_rotated_at', 'm.maintenance_since', 'm.fingerprint_default', 'h.fingerprint'])
        .where('m.id', 'in', ids).orderBy('m.imei').execute(),
      q.selectFrom('ports as p').innerJoin('users as u', 'u.id', 'p.user_id')
        .select(['p.id', 'p.modem_id', 'p.user_id', 'u.email', 'p.name', 'p.status', 'p.expires_at'])
        .where('p.modem_id', 'in', ids).where('p.status', '<>', 'released').orderBy('p.created_at').execute(),
    ]);
    return modems.map((m) => {
      const portIds = new Set(users.filter((u) => u.modem_id === m.id).map((u) => u.id));
      return {
        id: m.id, imei: m.imei, hostId: m.host_id, hostName: m.host_name, httpPort: m.http_port, socksPort: m.socks_port,
        extIp: m.ext_ip, online: m.online, retired: m.retired, applyStatus: m.apply_status, countryId: m.country_id,
        carrierId: m.carrier_id, regionId: m.region_id, isShared: m.is_shared, capacity: m.capacity, usedSlots: m.used_slots,
        rotationInterval: m.rotation_interval, lastRotatedAt: m.last_rotated_at ? m.last_rotated_at.toISOString() : null,
        maintenanceSince: m.maintenance_since ? m.maintenance_since.toISOString() : null,
        users: users.filter((u) => u.modem_id === m.id).map((u) => ({
          portId: u.id, userId: u.user_id, email: u.email, portName: u.name, status: u.status as 'active' | 'expired',
          expiresAt: u.expires_at.toISOString(),
        })),
        fingerprintDefault: m.fingerprint_default,
        fingerprintUnavailable: hostCapability(m.fingerprint).reason,
        fingerprintFailing: (m.fingerprint?.failing ?? []).filter((f) => portIds.has(f.portId)),
      };
    });
  }

  /** What the host's agent last reported of the modem with this IMEI; undefined when it reported none. */
  async reportOf(hostId: string, imei: string): Promise<unknown> {
    const row = await this.db.selectFrom('host_modem_reports').select('report')
      .where('host_id', '=', hostId).where('imei', '=', imei).executeTakeFirst();
    return row?.report;
  }

  /** The host, the carrier and the region a modem names, as far as they exist (modem-values.ts checks they agree). */
  async refs(tx: Q, v: Pick<ModemValues, 'host_id' | 'carrier_id' | 'region_id'>) {
    const [host, carrier, region] = await Promise.all([
      tx.selectFrom('hosts').select('id').where('id', '=', v.host_id).executeTakeFirst(),
      tx.selectFrom('carriers').select('country_id').where('id', '=', v.carrier_id).executeTakeFirst(),
      v.region_id ? tx.selectFrom('regions').select(['country_id', 'carrier_id']).where('id', '=', v.region_id).executeTakeFirst() : null,
    ]);
    return { host, carrier, region: region ?? undefined };
  }

  /** A new modem (with its driver when the host's report gave one), as its audit entry records it. */
  insert(tx: Tx, values: ModemValues & { driver?: HostModemInfo['driver'] }) {
    return tx.insertInto('modems').values(values).returning(MODEM_AUDIT_COLUMNS).executeTakeFirstOrThrow().catch(rethrowModemConflict);
  }

  /** The modem as its audit entry records it, its row locked for the rest of the transaction; undefined when there is none. */
  lock(tx: Tx, id: string) {
    return tx.selectFrom('modems').select(MODEM_AUDIT_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  }

  update(tx: Tx, id: string, values: ModemUpdate) {
    return tx.updateTable('modems').set(values).where('id', '=', id)
      .returning(MODEM_AUDIT_COLUMNS).executeTakeFirstOrThrow().catch(rethrowModemConflict);
  }

  /** Whether any port, even a released one, was ever on the modem. */
  async hasCarriedPorts(tx: Tx, id: string): Promise<boolean> {
    const history = await tx.selectFrom('ports').select('id').where('modem_id', '=', id).limit(1).executeTakeFirst();
    return history !== undefined;
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('modems').where('id', '=', id).execute();
  }

  /** The CSV import's rows, in one statement. */
  insertMany(tx: Tx, values: ModemValues[]) {
    return tx.insertInto('modems').values(values).returning(['id', 'imei']).execute().catch(rethrowModemConflict);
  }

  /**
   * The numbers modems use where a modem added to `hostId` would listen: every modem of the host, and the serving
   * (not retired) modems of the other hosts behind its gateway.
   */
  async modemNumbersNear(hostId: string): Promise<number[]> {
    const rows = await this.db.selectFrom('modems as m').select(['m.http_port', 'm.socks_port'])
      .where((eb) => eb.or([
        eb('m.host_id', '=', hostId),
        eb.and([eb('m.retired', '=', false), eb('m.host_id', 'in', eb.selectFrom('hosts as peer').innerJoin('hosts as self', 'self.gateway_id', 'peer.gateway_id')
          .select('peer.id').where('self.id', '=', hostId))]),
      ])).execute();
    return rows.flatMap((r) => [r.http_port, r.socks_port]);
  }

  /** The own numbers of live ports served on `hostId`'s scope (port-numbers-in-use.ts), but for ports of `exceptModemId`. */
  async portNumbersNear(hostId: string, exceptModemId?: string, q: Q = this.db): Promise<Set<number>> {
    let query = q.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
      .select(['p.http_port', 'p.socks_port'])
      .where('p.status', '<>', 'released').where('p.http_port', 'is not', null)
      .where('m.host_id', 'in', hostScope(hostId));
    if (exceptModemId) query = query.where('m.id', '<>', exceptModemId);
    const rows = await query.execute();
    return new Set(rows.flatMap((r) => [r.http_port!, r.socks_port!]));
  }

  /**
   * Everything the CSV import checks its rows against, read once. First the pinned hosts, then the gateways, are
   * locked before anything is read, in the order pins and modem writes take them (gateways/gateway-ports.ts).
   */
  async importLookups(tx: Tx) {
    await tx.selectFrom('hosts').select('id').where('gateway_id', 'is not', null).forShare().execute();
    await tx.selectFrom('gateways').select('id').forUpdate().execute();
    const [hosts, countries, carriers, regions, modems, portRows] = await Promise.all([
      tx.selectFrom('hosts').select(['id', 'name', 'gateway_id']).execute(),
      tx.selectFrom('countries').select(['id', 'code']).execute(),
      tx.selectFrom('carriers').select(['id', 'country_id', 'name']).execute(),
      tx.selectFrom('regions').select(['id', 'country_id', 'carrier_id', 'name']).execute(),
      tx.selectFrom('modems').select(['imei', 'host_id', 'http_port', 'socks_port', 'retired']).execute(),
      // Every live port's own numbers by the host that serves it.
      tx.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
        .select(['m.host_id', 'p.http_port', 'p.socks_port'])
        .where('p.status', '<>', 'released').where('p.http_port', 'is not', null).execute(),
    ]);
    const portNumbers = portRows.map((r) => ({ host_id: r.host_id, numbers: [r.http_port!, r.socks_port!] }));
    return { hosts, countries, carriers, regions, modems, portNumbers };
  }

  /** Port slots of non-retired modems by country, carrier, region and shared/dedicated. */
  stock() {
    return this.db.selectFrom('modems as m')
      .innerJoin('countries as c', 'c.id', 'm.country_id')
      .innerJoin('carriers as k', 'k.id', 'm.carrier_id')
      .leftJoin('regions as r', 'r.id', 'm.region_id')
      .select(['m.country_id', 'c.code', 'm.carrier_id', 'k.name as carrier_name', 'm.region_id', 'r.name as region_name', 'm.is_shared'])
      .select([
        sql<string>`count(*)`.as('modems'),
        sql<string>`sum(m.capacity)`.as('slots'),
        sql<string>`sum(m.used_slots)`.as('used'),
        // A modem in maintenance (issue 15, item 6) is not for sale: its slots count with the offline ones.
        sql<string>`sum(case when m.online and m.maintenance_since is null then m.capacity - m.used_slots else 0 end)`.as('free'),
        sql<string>`sum(case when m.online and m.maintenance_since is null then 0 else m.capacity - m.used_slots end)`.as('offline'),
      ])
      .where('m.retired', '=', false)
      .groupBy(['m.country_id', 'c.code', 'm.carrier_id', 'k.name', 'm.region_id', 'r.name', 'm.is_shared'])
      .orderBy('c.code').orderBy('k.name').orderBy('r.name').orderBy('m.is_shared')
      .execute();
  }
}
