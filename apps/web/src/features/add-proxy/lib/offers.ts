import type { CatalogOffer, Country, Tariff } from '@cellport/shared/schemas/catalog';
import { choose, emptySelection, portTypesFor, rotationIntervalsFor, type Selection } from './selection';

// The catalog's offers (GET /api/v1/catalog/offers) matched to the form's choices: what a choice buys, which
// choices are sold out, and the first choice in stock to open the page on (issue 28, item 11).

/** The offer of a full choice: its place (carrier, region or any) and type; shared ports also by rotation interval. */
export function offerFor(offers: readonly CatalogOffer[], s: Selection): CatalogOffer | null {
  if (s.isShared === null) return null;
  return offers.find((o) => o.country_id === s.country_id && o.carrier_id === s.carrier_id && o.region_id === s.region_id
    && o.isShared === s.isShared && (s.isShared ? o.rotationInterval === s.rotationInterval : true)) ?? null;
}

/** Ports in stock for a partial choice: a field left out (undefined) counts every value of it. */
export function stockOf(offers: readonly CatalogOffer[], f: {
  country_id: string | null; carrier_id?: string | null; region_id?: string | null; isShared?: boolean; rotationInterval?: number | null;
}): number {
  return offers
    .filter((o) => o.country_id === f.country_id
      && o.carrier_id === (f.carrier_id === undefined ? o.carrier_id : f.carrier_id)
      // Offers come per region and for "any region" too: without a region, only the "any" rows count (no double counting).
      && o.region_id === (f.region_id === undefined ? null : f.region_id)
      && (f.isShared === undefined || o.isShared === f.isShared)
      && (f.rotationInterval === undefined || !o.isShared || o.rotationInterval === f.rotationInterval))
    .filter((o) => f.carrier_id !== undefined || o.carrier_id === null)
    .reduce((n, o) => n + o.inStock, 0);
}

/**
 * The choice the page opens on: the first country, carrier, port type and rotation interval (in the catalog's order)
 * that has ports in stock, so a buyer never lands on a sold-out choice. Nothing in stock anywhere: the first choice.
 */
export function firstInStock(countries: readonly Country[], tariffs: readonly Tariff[], offers: readonly CatalogOffer[]): Selection {
  const first = choose(countries, tariffs, emptySelection, { country_id: countries[0]?._id ?? null });
  for (const country of countries) {
    const carriers = country.carriers.length ? country.carriers.map((c) => c._id) : [null];
    for (const carrier_id of carriers) {
      const place = choose(countries, tariffs, emptySelection, { country_id: country._id, carrier_id });
      for (const isShared of portTypesFor(tariffs, place)) {
        const typed = choose(countries, tariffs, place, { isShared });
        for (const rotationInterval of rotationIntervalsFor(tariffs, typed)) {
          const s = choose(countries, tariffs, typed, { rotationInterval });
          if (s.tariff_id && (offerFor(offers, s)?.inStock ?? 0) > 0) return s;
        }
      }
    }
  }
  return first;
}
