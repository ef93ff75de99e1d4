import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LANGUAGES, type Language } from '@cellport/shared';
import { PERIOD_DAYS, type Country, type RotationTag, type Tariff } from '@cellport/shared/schemas/catalog';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { LocalizedNames } from '../../db/tables/catalog.js';
import { limitsToApi, type TariffLimitColumns } from './tariff-limits.js';
import { discountsToApi, trialToApi, type TariffOfferColumns } from './tariff-offers.js';

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
const TAG_TEXTS = Object.fromEntries(LANGUAGES.map((lng) => [
  lng, JSON.parse(readFileSync(join(localesDir, lng, 'rotation-tags.json'), 'utf8')) as Record<string, string>,
])) as Record<Language, Record<string, string>>;

export const localized = (names: LocalizedNames, lng: Language): string => names[lng] || names.en;

/** A region's names (issue 27, item 12): `name` is English; Russian and Chinese read English while not given. */
export const regionNames = (r: { name: string; name_ru: string | null; name_cn: string | null }): LocalizedNames =>
  ({ en: r.name, ru: r.name_ru || r.name, cn: r.name_cn || r.name });

export interface StockFilter {
  countryId: string;
  isShared?: boolean | undefined;
  carrierId?: string | null | undefined;
  regionId?: string | null | undefined;
  rotationInterval?: number | undefined;
}

export interface TariffRow {
  id: string; names: LocalizedNames; price: bigint; period: 'day' | 'week' | 'month'; period_days: 1 | 7 | 30;
  country_id: string; carrier_id: string | null; region_id: string | null; is_shared: boolean;
  rotation_interval: number; recurring: boolean; active: boolean;
}
type TariffRowWithLimits = TariffRow & TariffLimitColumns & TariffOfferColumns;

export const tariffToApi = (t: TariffRowWithLimits): Tariff => ({
  _id: t.id, name: t.names, price: t.price.toString(), period: t.period, periodDays: PERIOD_DAYS[t.period],
  country_id: t.country_id, carrier_id: t.carrier_id, region_id: t.region_id, isShared: t.is_shared,
  rotationInterval: t.rotation_interval, recurring: t.recurring, limits: limitsToApi(t),
  trial: trialToApi(t), discounts: discountsToApi(t.volume_discounts),
});

/** Countries, carriers, regions, tariffs and how much stock can be bought with a given filter. */
export class CatalogService {
  constructor(private readonly db: Database) {}

  async countries(lng: Language): Promise<Country[]> {
    const [countries, carriers, regions] = await Promise.all([
      this.db.selectFrom('countries').selectAll().orderBy('sort').orderBy('code').execute(),
      this.db.selectFrom('carriers').selectAll().orderBy('name').execute(),
      this.db.selectFrom('regions').selectAll().orderBy('name').execute(),
    ]);
    return countries.map((c) => ({
      _id: c.id, code: c.code, name: localized(c.names, lng), names: c.names,
      carriers: carriers.filter((x) => x.country_id === c.id).map((x) => ({ _id: x.id, name: x.name, asn: x.asn })),
      regions: regions.filter((x) => x.country_id === c.id).map((x) => {
        const names = regionNames(x);
        return { _id: x.id, name: localized(names, lng), names, carrier_id: x.carrier_id };
      }),
    }));
  }

  async tariffs(): Promise<Tariff[]> {
    const rows = await this.db.selectFrom('tariffs').selectAll().where('active', '=', true)
      .orderBy('sort').orderBy('price').execute();
    return rows.map(tariffToApi);
  }

  /** Whether the customer has bought their one trial (issue 27, item 8). */
  async trialUsed(userId: string): Promise<boolean> {
    return (await this.db.selectFrom('trial_uses').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !== undefined;
  }

  async tariff(id: string): Promise<(TariffRow & TariffOfferColumns) | undefined> {
    return this.db.selectFrom('tariffs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The active rotation-interval choices operators keep in the console; their own labels win over the built-in wording. */
  async rotationTags(lng: Language): Promise<RotationTag[]> {
    const t = TAG_TEXTS[lng];
    const rows = await this.db.selectFrom('rotation_intervals').select(['minutes', 'labels'])
      .where('active', '=', true).orderBy('sort').orderBy('minutes').execute();
    return rows.map(({ minutes: value, labels }) => ({
      value,
      label: (labels ? localized(labels, lng) : '') || t[String(value)] || (t.minutes ?? '{{count}}').replace('{{count}}', String(value)),
    }));
  }

  /**
   * Ports purchasable now: the free slots of online, non-retired modems matching the filter (dedicated modems have
   * one slot). Shared modems rotate on one schedule, so a rotation interval filters them; a dedicated port takes
   * any interval.
   */
  async availableCount(filter: StockFilter, tx?: Tx): Promise<number> {
    let q = (tx ?? this.db).selectFrom('modems')
      .select(sql<string>`coalesce(sum(capacity - used_slots), 0)`.as('free'))
      .where('country_id', '=', filter.countryId).where('online', '=', true).where('retired', '=', false)
      .where('maintenance_since', 'is', null);
    if (filter.isShared !== undefined) q = q.where('is_shared', '=', filter.isShared);
    if (filter.carrierId) q = q.where('carrier_id', '=', filter.carrierId);
    if (filter.regionId) q = q.where('region_id', '=', filter.regionId);
    if (filter.rotationInterval !== undefined && filter.isShared !== false) {
      const interval = filter.rotationInterval;
      q = q.where((eb) => eb.or([eb('is_shared', '=', false), eb('rotation_interval', '=', interval)]));
    }
    const row = await q.executeTakeFirst();
    return Number(row?.free ?? 0);
  }
}
