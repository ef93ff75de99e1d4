import { sql, type Insertable } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { ModemQualityTable } from '../../db/tables/catalog.js';

/** What a count of purchasable ports asks for (Add Proxies' count, an order's check before payment). */
export interface StockFilter {
  countryId: string;
  isShared?: boolean | undefined;
  carrierId?: string | null | undefined;
  regionId?: string | null | undefined;
  rotationInterval?: number | undefined;
}

/** A modem's median speed test as stored (modem-quality-tracker.ts computes it). */
export type QualityValues = Omit<Insertable<ModemQualityTable>, 'modem_id'>;

/**
 * The catalog's reads (countries, carriers, regions, tariffs, rotation-interval choices: customers read the active
 * ones, the console all), its stock counts from the modems, and the speed medians the agents' tests give. The
 * console's writes are in catalog-admin.repository.ts.
 */
export class CatalogRepository {
  constructor(private readonly db: Database) {}

  countries() {
    return this.db.selectFrom('countries').selectAll().orderBy('sort').orderBy('code').execute();
  }

  carriers() {
    return this.db.selectFrom('carriers').selectAll().orderBy('name').execute();
  }

  regions() {
    return this.db.selectFrom('regions').selectAll().orderBy('name').execute();
  }

  /** Tariffs in the order customers see them: the active ones (customers) or all (the console). */
  tariffs(which: 'active' | 'all') {
    let q = this.db.selectFrom('tariffs').selectAll();
    if (which === 'active') q = q.where('active', '=', true);
    return q.orderBy('sort').orderBy('price').execute();
  }

  tariff(id: string) {
    return this.db.selectFrom('tariffs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The rotation-interval choices: the active ones (customers) or all (the console). */
  rotationIntervals(which: 'active' | 'all') {
    let q = this.db.selectFrom('rotation_intervals').selectAll();
    if (which === 'active') q = q.where('active', '=', true);
    return q.orderBy('sort').orderBy('minutes').execute();
  }

  async trialUsed(userId: string): Promise<boolean> {
    return (await this.db.selectFrom('trial_uses').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !== undefined;
  }

  /**
   * The free slots of online, non-retired modems matching the filter (dedicated modems have one slot). Shared modems
   * rotate on one schedule, so a rotation interval filters them; a dedicated port takes any interval.
   * `upTo`: the caller only asks whether there are this many (an order's check), so at most `upTo` modems with a free
   * slot are read (each has at least one): the answer is exact below `upTo`, and `upTo` or more otherwise. Without it
   * every matching modem is summed, which grows with the stock: 116,345 modems, 500 ms, for one US port at
   * --scale 10 (bench/BENCHMARKS.md, "Scale"); with it, an Index Scan of modems_free_stock reading `upTo` rows.
   */
  async freeSlots(filter: StockFilter, tx?: Tx, upTo?: number): Promise<number> {
    let q = (tx ?? this.db).selectFrom('modems').select(['capacity', 'used_slots'])
      .where('country_id', '=', filter.countryId).where('online', '=', true).where('retired', '=', false)
      .where('maintenance_since', 'is', null)
      // Rows without a free slot add nothing; saying so lets the planner use the partial index modems_free_stock.
      .whereRef('used_slots', '<', 'capacity');
    if (filter.isShared !== undefined) q = q.where('is_shared', '=', filter.isShared);
    if (filter.carrierId) q = q.where('carrier_id', '=', filter.carrierId);
    if (filter.regionId) q = q.where('region_id', '=', filter.regionId);
    if (filter.rotationInterval !== undefined && filter.isShared !== false) {
      const interval = filter.rotationInterval;
      q = q.where((eb) => eb.or([eb('is_shared', '=', false), eb('rotation_interval', '=', interval)]));
    }
    // In modems_free_stock's order, so the planner walks that index (reading no more than the free modems of the
    // choice, none when it is sold out) rather than the table until `upTo` match.
    if (upTo !== undefined) q = q.orderBy('country_id').orderBy('is_shared').orderBy('imei').limit(upTo);
    const row = await (tx ?? this.db).selectFrom(q.as('free_modems'))
      .select(sql<string>`coalesce(sum(capacity - used_slots), 0)`.as('free')).executeTakeFirst();
    return Number(row?.free ?? 0);
  }

  /** Every modem not retired, with what a buyer's choice shows of it: stock, its speed median, its carrier's ASN. */
  offerModems() {
    return this.db.selectFrom('modems')
      .leftJoin('modem_quality', 'modem_quality.modem_id', 'modems.id')
      .leftJoin('carriers', 'carriers.id', 'modems.carrier_id')
      .select((eb) => [
        'modems.country_id', 'modems.carrier_id', 'modems.region_id', 'modems.is_shared', 'modems.rotation_interval',
        'modems.capacity', 'modems.used_slots',
        eb.and([eb('modems.online', '=', true), eb('modems.maintenance_since', 'is', null)]).as('sellable'),
        'modem_quality.latency_ms', 'modem_quality.down_kbps', 'modem_quality.up_kbps', 'modem_quality.udp', 'carriers.asn',
      ])
      .where('modems.retired', '=', false)
      .execute();
  }

  /** The modem of this IMEI on this host, or undefined: an agent cannot write another host's numbers. */
  async hostModemId(hostId: string, imei: string): Promise<string | undefined> {
    const modem = await this.db.selectFrom('modems').select('id').where('imei', '=', imei).where('host_id', '=', hostId).executeTakeFirst();
    return modem?.id;
  }

  async saveQuality(modemId: string, values: QualityValues): Promise<void> {
    await this.db.insertInto('modem_quality').values({ modem_id: modemId, ...values })
      .onConflict((oc) => oc.column('modem_id').doUpdateSet(values)).execute();
  }
}
