import * as z from 'zod/mini';
import { text } from './text.js';

// A tariff's paid trial and its volume discounts (issue 27, item 8; decision 041), as the operator sets them on the
// tariff. The money they make is priced in pricing.ts; this file holds no money arithmetic so catalog.ts can use it.

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

const wholeInt = (min: number, max: number, message: string) =>
  z.number().check(z.int(message), z.minimum(min, message), z.maximum(max, message));

/** What a trial costs (whole cents of micro-USD, more than zero) and how many hours it lasts. */
export const trialSchema = z.object({
  hours: wholeInt(PRICING_LIMITS.trialHoursMin, PRICING_LIMITS.trialHoursMax, PRICING_MESSAGES.trialHours),
  price: text().check(
    z.regex(/^\d{1,12}$/, PRICING_MESSAGES.trialPrice),
    z.refine((v) => /^\d+$/.test(v) && BigInt(v) > 0n && BigInt(v) % 10_000n === 0n, PRICING_MESSAGES.trialPrice),
  ),
});
export type Trial = z.infer<typeof trialSchema>;

/** "From `min` ports (quantity) or `min` days bought at once (days), `percent` off." */
export const discountStepSchema = z.object({
  min: z.number().check(z.int()),
  percent: wholeInt(PRICING_LIMITS.percentMin, PRICING_LIMITS.percentMax, PRICING_MESSAGES.percent),
});
export type DiscountStep = z.infer<typeof discountStepSchema>;

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

const stepsSchema = (basis: 'quantity' | 'days') => z.array(discountStepSchema).check(z.superRefine((steps, ctx) => {
  const problem = stepsProblem(steps, basis);
  if (problem) ctx.issues.push({ code: 'custom', input: steps, message: PRICING_MESSAGES[problem] });
}));

/** A tariff's volume discounts: by how many ports one order buys, and by how many days it pays for at once. */
export const volumeDiscountsSchema = z.object({ quantity: stepsSchema('quantity'), days: stepsSchema('days') });
export type VolumeDiscounts = z.infer<typeof volumeDiscountsSchema>;
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

