// A tariff's volume discounts as numbers (issue 27, item 8; decision 041): the bounds, the English messages, why a
// list of steps is refused and which step applies. Plain TypeScript, no zod: tariff-offers.ts builds the schemas from
// it and re-exports it, and the web's Add Proxies page prices an order without loading those schemas (issue 31,
// item 4).

/** "From `min` ports (quantity) or `min` days bought at once (days), `percent` off" (tariff-offers.ts' DiscountStep). */
export interface DiscountStep { min: number; percent: number }
/** By how many ports one order buys, and by how many days it pays for at once (tariff-offers.ts' VolumeDiscounts). */
export interface VolumeDiscounts { quantity: DiscountStep[]; days: DiscountStep[] }

export const PRICING_LIMITS = {
  trialHoursMin: 1,
  trialHoursMax: 72,
  percentMin: 0,
  percentMax: 90,
  stepsMax: 8,
  /** A quantity step starts at 2 ports or more (1 port is the base price). */
  quantityMin: 2,
  quantityMax: 50,
  daysMin: 1,
  daysMax: 365,
} as const;

/** English validation messages; the console translates them through `admin:pricing.errors.<key>`. */
export const PRICING_MESSAGES = {
  trialHours: 'A trial lasts 1-72 hours',
  trialPrice: 'A trial price is whole cents, more than nothing',
  percent: 'A discount is a whole percent from 0 to 90',
  quantity: 'A quantity step starts at 2-50 ports',
  days: 'A period step starts at 1-365 days',
  overlap: 'Two steps start at the same size: each size may have one discount',
  order: 'A larger order cannot get a smaller discount than a smaller one',
  stepsMax: 'At most 8 steps of each kind',
} as const;

/** Why a list of steps is refused, or null: bounds, one discount per size, and never less off for a larger order. */
export function stepsProblem(steps: readonly DiscountStep[], basis: 'quantity' | 'days'): keyof typeof PRICING_MESSAGES | null {
  const [lo, hi] = basis === 'quantity' ? [PRICING_LIMITS.quantityMin, PRICING_LIMITS.quantityMax] : [PRICING_LIMITS.daysMin, PRICING_LIMITS.daysMax];
  if (steps.length > PRICING_LIMITS.stepsMax) return 'stepsMax';
  if (steps.some((s) => !Number.isInteger(s.min) || s.min < lo || s.min > hi)) return basis;
  if (steps.some((s) => !Number.isInteger(s.percent) || s.percent < PRICING_LIMITS.percentMin || s.percent > PRICING_LIMITS.percentMax)) return 'percent';
  const sorted = [...steps].sort((a, b) => a.min - b.min);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.min === sorted[i - 1]!.min) return 'overlap';
    if (sorted[i]!.percent < sorted[i - 1]!.percent) return 'order';
  }
  return null;
}

export const NO_DISCOUNTS: VolumeDiscounts = { quantity: [], days: [] };

/** The step that applies: the largest `min` not above the value (0 % when none does). */
export function stepPercent(steps: readonly DiscountStep[], value: number): number {
  let best: DiscountStep | null = null;
  for (const s of steps) if (s.min <= value && (!best || s.min > best.min)) best = s;
  return best?.percent ?? 0;
}

/**
 * Percent off an order of `quantity` ports for `days` days: the quantity step and the period step add up (5+ ports
 * −5 % and 30+ days −10 % is −15 %), never more than 90 %.
 */
export function volumePercent(discounts: VolumeDiscounts, quantity: number, days: number): number {
  return Math.min(PRICING_LIMITS.percentMax, stepPercent(discounts.quantity, quantity) + stepPercent(discounts.days, days));
}

