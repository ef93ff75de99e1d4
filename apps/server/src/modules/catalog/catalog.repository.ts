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

/** Alike modems' stock (stockGroups): the interval is a shared port's only. */
export interface StockGroupRow {
  country_id: string; carrier_id: string; region_id: string | null; is_shared: boolean; rotation_interval: number | null;
  in_stock: number; modems: number;
}

/** One choice's speeds, UDP and ASN (qualityGroups); `any_carrier` / `any_region`: the row is every carrier's / region's. */
export interface QualityGroupRow {
  country_id: string; carrier_id: string | null; region_id: string | null; is_shared: boolean; rotation_interval: number | null;
  any_carrier: boolean; any_region: boolean; measured: number;
  down_kbps: number | null; up_kbps: number | null; latency_ms: number | null;
  udp_yes: number; udp_checked: number; asn_kinds: number; asn: number | null;
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

  /**
   * The stock of every group of alike modems (country, carrier, region, port type, rotation interval of a shared
   * port): free slots and modems. A few hundred rows however many modems; read again after every sale, so kept cheap
   * (one pass, hashed, no sort). catalog-offers.ts adds the groups up into the "any carrier / any region" choices.
   */
  async stockGroups(): Promise<StockGroupRow[]> {
    const { rows } = await sql<StockGroupRow>`
      select country_id, carrier_id, region_id, is_shared, case when is_shared then rotation_interval end as rotation_interval,
        sum(case when online and maintenance_since is null then greatest(0, capacity - used_slots) else 0 end)::int as in_stock,
        count(*)::int as modems
      from modems where not retired
      group by country_id, carrier_id, region_id, is_shared, case when is_shared then rotation_interval end`
      .execute(this.db);
    return rows;
  }

  /**
   * What the speed tests and the carriers say of every buyer's choice: one row per country × port type × rotation
   * interval × carrier or any × region or any. Medians do not add up from groups, hence the grouping sets; their sorts
   * make this the dearer read, so it is kept longer than the stock (catalog-offers.ts). A modem counts in its carrier's
   * and its region's rows and in the "any" rows; medians are over the measured modems (down, up and latency known).
   */
  async qualityGroups(): Promise<QualityGroupRow[]> {
    const { rows } = await sql<QualityGroupRow>`
      with m as (
        select m.country_id, m.carrier_id, m.region_id, m.is_shared,
          case when m.is_shared then m.rotation_interval end as rotation_interval,
          q.latency_ms, q.down_kbps, q.up_kbps, q.udp, c.asn,
          (q.latency_ms is not null and q.down_kbps is not null and q.up_kbps is not null) as measured
        from modems m
        left join modem_quality q on q.modem_id = m.id
        left join carriers c on c.id = m.carrier_id
        where not m.retired
      )
      select country_id, carrier_id, region_id, is_shared, rotation_interval,
        grouping(carrier_id) = 1 as any_carrier, grouping(region_id) = 1 as any_region,
        count(*) filter (where measured)::int as measured,
        percentile_cont(0.5) within group (order by down_kbps) filter (where measured) as down_kbps,
        percentile_cont(0.5) within group (order by up_kbps) filter (where measured) as up_kbps,
        percentile_cont(0.5) within group (order by latency_ms) filter (where measured) as latency_ms,
        count(*) filter (where udp)::int as udp_yes, count(udp)::int as udp_checked,
        count(distinct coalesce(asn, -1))::int as asn_kinds, min(asn) as asn
      from m
      group by grouping sets (
        (country_id, is_shared, rotation_interval, carrier_id, region_id),
        (country_id, is_shared, rotation_interval, carrier_id),
        (country_id, is_shared, rotation_interval, region_id),
        (country_id, is_shared, rotation_interval))`
      .execute(this.db);
    return rows;
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
