import { NO_DISCOUNTS, type Trial, type VolumeDiscounts } from '@cellport/shared/schemas/tariff-offers';

/** The trial and volume-discount columns of a tariff row (migration 2026_12_11_0400). */
export interface TariffOfferColumns {
  trial_hours: number | null;
  trial_price: bigint | null;
  volume_discounts: VolumeDiscounts;
}

/** A tariff's trial as the API shows it (null when it offers none). */
export const trialToApi = (t: Pick<TariffOfferColumns, 'trial_hours' | 'trial_price'>): Trial | null =>
  (t.trial_hours !== null && t.trial_price !== null ? { hours: t.trial_hours, price: BigInt(t.trial_price).toString() } : null);

/** Steps sorted by size, so every reader (page, quote, invoice) lists them in the same order. */
export const discountsToApi = (d: VolumeDiscounts | null | undefined): VolumeDiscounts => {
  const v = d ?? NO_DISCOUNTS;
  return { quantity: [...v.quantity].sort((a, b) => a.min - b.min), days: [...v.days].sort((a, b) => a.min - b.min) };
};

/**
 * The columns a tariff write sets: a field left out keeps the row's value (`before`; a new tariff: no trial, no
 * steps), `trial: null` removes the trial. The request schema has already checked bounds, cents and overlaps.
 */
export function offersToColumns(
  req: { trial?: Trial | null | undefined; discounts?: VolumeDiscounts | undefined },
  before: TariffOfferColumns | null,
): { trial_hours: number | null; trial_price: bigint | null; volume_discounts: string } {
  const trial = req.trial !== undefined ? req.trial : before ? trialToApi(before) : null;
  const discounts = req.discounts ?? before?.volume_discounts ?? NO_DISCOUNTS;
  return {
    trial_hours: trial?.hours ?? null,
    trial_price: trial ? BigInt(trial.price) : null,
    volume_discounts: JSON.stringify(discountsToApi(discounts)),
  };
}
