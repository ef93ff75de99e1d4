import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import type { ColumnType, Generated } from 'kysely';
import type { VolumeDiscounts } from '@cellport/shared/schemas/tariff-offers';

export interface LocalizedNames { en: string; ru: string; cn: string }

export interface CountriesTable { id: Generated<string>; code: string; names: LocalizedNames; sort: Generated<number> }
export interface CarriersTable {
  id: Generated<string>; country_id: string; name: string;
  /** The carrier's autonomous system number, set by the operator (migration 2026_12_11_0300_modem_quality). */
  asn: ColumnType<number | null, number | null | undefined, number | null>;
}
/** The rolling median of a modem's last speed tests (issue 27, item 8). */
export interface ModemQualityTable {
  modem_id: string; latency_ms: number; down_kbps: number; up_kbps: number; udp: boolean | null; samples: number;
  measured_at: ColumnType<Date, Date | string, Date | string>;
}
/** `name` is the English name; Russian and Chinese are optional, null reads English (migration 2026_12_12_1830). */
export interface RegionsTable {
  id: Generated<string>; country_id: string; carrier_id: string | null; name: string;
  name_ru: ColumnType<string | null, string | null | undefined, string | null>;
  name_cn: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface TariffsTable {
  id: Generated<string>;
  names: LocalizedNames;
  /** Minor units (USD micro-units) per period. */
  price: bigint;
  period: 'day' | 'week' | 'month';
  period_days: 1 | 7 | 30;
  country_id: string;
  carrier_id: string | null;
  region_id: string | null;
  is_shared: boolean;
  rotation_interval: Generated<number>;
  recurring: Generated<boolean>;
  active: Generated<boolean>;
  sort: Generated<number>;
  /** Set by the seed so re-running it finds its rows. */
  seed_key: string | null;
  /** Per-port limits (issue 18; migration 2026_12_08_0200_port_limits). */
  bandwidth_mbps: ColumnType<number | null, number | null | undefined, number | null>;
  max_connections: Generated<number>;
  monthly_quota_gb: ColumnType<number | null, number | null | undefined, number | null>;
  over_quota: Generated<'throttle' | 'block'>;
  over_quota_mbps: ColumnType<number | null, number | null | undefined, number | null>;
  /** The operator's fingerprint preset for this tariff's ports (issue 30); null: native. */
  fingerprint_default: ColumnType<FingerprintPresetId | null, FingerprintPresetId | null | undefined, FingerprintPresetId | null>;
  /** The paid trial (issue 27, item 8; migration 2026_12_11_0400): both null when the tariff offers none. */
  trial_hours: ColumnType<number | null, number | null | undefined, number | null>;
  trial_price: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  /** Volume discount steps, {quantity: [{min, percent}], days: [...]} (shared VolumeDiscounts). */
  volume_discounts: ColumnType<VolumeDiscounts, string | undefined, string>;
}

/** One customer's one trial (the key is the customer: once per customer). */
export interface TrialUsesTable {
  user_id: string;
  tariff_id: string;
  payment_id: string;
  used_at: Generated<Date>;
}

export interface CatalogTables {
  countries: CountriesTable;
  carriers: CarriersTable;
  regions: RegionsTable;
  tariffs: TariffsTable;
  modem_quality: ModemQualityTable;
  trial_uses: TrialUsesTable;
}
