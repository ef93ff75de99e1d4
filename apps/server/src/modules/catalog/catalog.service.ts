import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LANGUAGES, type Language } from '@cellport/shared';
import { PERIOD_DAYS, type Country, type LocalizedName, type RotationTag, type Tariff } from '@cellport/shared/schemas/catalog';
import type { Tx } from '../../db/database.js';
import type { CatalogRepository, StockFilter } from './catalog.repository.js';
import { limitsToApi, type TariffLimitColumns } from './tariff-limits.js';
import { discountsToApi, trialToApi, type TariffOfferColumns } from './tariff-offers.js';

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
const TAG_TEXTS = Object.fromEntries(LANGUAGES.map((lng) => [
  lng, JSON.parse(readFileSync(join(localesDir, lng, 'rotation-tags.json'), 'utf8')) as Record<string, string>,
])) as Record<Language, Record<string, string>>;

export const localized = (names: LocalizedName, lng: Language): string => names[lng] || names.en;

/** A region's names (issue 27, item 12): `name` is English; Russian and Chinese read English while not given. */
export const regionNames = (r: { name: string; name_ru: string | null; name_cn: string | null }): LocalizedName =>
  ({ en: r.name, ru: r.name_ru || r.name, cn: r.name_cn || r.name });

export interface TariffRow {
  id: string; names: LocalizedName; price: bigint; period: 'day' | 'week' | 'month'; period_days: 1 | 7 | 30;
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
  constructor(private readonly repo: CatalogRepository) {}

  async countries(lng: Language): Promise<Country[]> {
    const [countries, carriers, regions] = await Promise.all([this.repo.countries(), this.repo.carriers(), this.repo.regions()]);
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
    return (await this.repo.tariffs('active')).map(tariffToApi);
  }

  /** Whether the customer has bought their one trial (issue 27, item 8). */
  trialUsed(userId: string): Promise<boolean> {
    return this.repo.trialUsed(userId);
  }

  tariff(id: string): Promise<(TariffRow & TariffOfferColumns) | undefined> {
    return this.repo.tariff(id);
  }

  /** The active rotation-interval choices operators keep in the console; their own labels win over the built-in wording. */
  async rotationTags(lng: Language): Promise<RotationTag[]> {
    const t = TAG_TEXTS[lng];
    const rows = await this.repo.rotationIntervals('active');
    return rows.map(({ minutes: value, labels }) => ({
      value,
      label: (labels ? localized(labels, lng) : '') || t[String(value)] || (t.minutes ?? '{{count}}').replace('{{count}}', String(value)),
    }));
  }

  /**
   * Whether `wanted` ports are purchasable now: the free slots, exact when fewer than `wanted`, else at least `wanted`
   * (reads at most `wanted` modems, however large the stock: catalog.repository.ts freeSlots).
   */
  availableUpTo(filter: StockFilter, wanted: number, tx?: Tx): Promise<number> {
    return this.repo.freeSlots(filter, tx, wanted);
  }
}
