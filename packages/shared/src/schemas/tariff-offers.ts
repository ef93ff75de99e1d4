import * as z from 'zod/mini';
import { text } from './text.js';
import { PRICING_LIMITS, PRICING_MESSAGES, stepsProblem } from './volume-discounts.js';

// A tariff's paid trial and its volume discounts (issue 27, item 8; decision 041), as the operator sets them on the
// tariff. The money they make is priced in pricing.ts; this file holds no money arithmetic so catalog.ts can use it.

// The limits, messages and step arithmetic live in volume-discounts.ts, without zod, so the web prices an order
// without loading these schemas (issue 31, item 4).
export { NO_DISCOUNTS, PRICING_LIMITS, PRICING_MESSAGES, stepPercent, stepsProblem, volumePercent } from './volume-discounts.js';

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

const stepsSchema = (basis: 'quantity' | 'days') => z.array(discountStepSchema).check(z.superRefine((steps, ctx) => {
  const problem = stepsProblem(steps, basis);
  if (problem) ctx.issues.push({ code: 'custom', input: steps, message: PRICING_MESSAGES[problem] });
}));

/** A tariff's volume discounts: by how many ports one order buys, and by how many days it pays for at once. */
export const volumeDiscountsSchema = z.object({ quantity: stepsSchema('quantity'), days: stepsSchema('days') });
export type VolumeDiscounts = z.infer<typeof volumeDiscountsSchema>;
