import type { Country, Region, Tariff } from '@cellport/shared/schemas/catalog';

/** What the customer has chosen so far; each step narrows the next one. */
export interface Selection {
  country_id: string | null;
  carrier_id: string | null;
  /** null = any region of the carrier. */
  region_id: string | null;
  isShared: boolean | null;
  rotationInterval: number | null;
  tariff_id: string | null;
}

export const emptySelection: Selection = {
  country_id: null, carrier_id: null, region_id: null, isShared: null, rotationInterval: null, tariff_id: null,
};

// A tariff with carrier_id or region_id null applies to every carrier or region of its country.
const fitsCarrier = (t: Tariff, carrier: string | null) => t.carrier_id === null || t.carrier_id === carrier;
const fitsRegion = (t: Tariff, region: string | null) => t.region_id === null || t.region_id === region;

/** Regions the chosen carrier serves (regions without a carrier belong to every carrier). */
export function regionsFor(country: Country | undefined, carrierId: string | null): Region[] {
  if (!country) return [];
  return country.regions.filter((r) => r.carrier_id === null || r.carrier_id === carrierId);
}

/** Tariffs matching the place chosen so far (country, carrier, region). */
export function tariffsForPlace(tariffs: readonly Tariff[], s: Selection): Tariff[] {
  return tariffs.filter((t) => t.country_id === s.country_id && fitsCarrier(t, s.carrier_id) && fitsRegion(t, s.region_id));
}

/** Port types (shared / dedicated) some tariff offers for the place. */
export function portTypesFor(tariffs: readonly Tariff[], s: Selection): boolean[] {
  const types = new Set(tariffsForPlace(tariffs, s).map((t) => t.isShared));
  return [false, true].filter((v) => types.has(v));
}

/** Rotation intervals some tariff offers for the place and port type, ascending. */
export function rotationIntervalsFor(tariffs: readonly Tariff[], s: Selection): number[] {
  const values = new Set(tariffsForPlace(tariffs, s).filter((t) => t.isShared === s.isShared).map((t) => t.rotationInterval));
  return [...values].sort((a, b) => a - b);
}

/** Tariffs (periods and prices) for the full choice, shortest period first. */
export function tariffsForChoice(tariffs: readonly Tariff[], s: Selection): Tariff[] {
  return tariffsForPlace(tariffs, s)
    .filter((t) => t.isShared === s.isShared && t.rotationInterval === s.rotationInterval)
    .sort((a, b) => a.periodDays - b.periodDays || (BigInt(a.price) < BigInt(b.price) ? -1 : 1));
}

/**
 * Applies one step's choice and repairs the later steps: a later choice that is no longer offered is replaced by
 * the first offered one (or cleared), so the form never holds an impossible combination.
 */
export function choose(
  countries: readonly Country[],
  tariffs: readonly Tariff[],
  current: Selection,
  change: Partial<Selection>,
): Selection {
  const s: Selection = { ...current, ...change };
  const country = countries.find((c) => c._id === s.country_id);
  if (!country) return { ...emptySelection };

  if (!country.carriers.some((c) => c._id === s.carrier_id)) s.carrier_id = country.carriers[0]?._id ?? null;
  if (s.region_id !== null && !regionsFor(country, s.carrier_id).some((r) => r._id === s.region_id)) s.region_id = null;

  const types = portTypesFor(tariffs, s);
  if (s.isShared === null || !types.includes(s.isShared)) s.isShared = types[0] ?? null;

  const intervals = rotationIntervalsFor(tariffs, s);
  if (s.rotationInterval === null || !intervals.includes(s.rotationInterval)) s.rotationInterval = intervals[0] ?? null;

  const offered = tariffsForChoice(tariffs, s);
  if (!offered.some((t) => t._id === s.tariff_id)) s.tariff_id = offered[0]?._id ?? null;
  return s;
}
