import { PRICING_LIMITS, stepsProblem, type DiscountStep, type Trial, type VolumeDiscounts } from '@cellport/shared/schemas/tariff-offers';
import { formatCoin, parseMoneyInput } from '../../../lib/money';

// The tariff form's paid trial and volume steps (issue 27, item 8), and its price in whole cents: fields as typed,
// checked by the same rules as the server's schema (packages/shared tariff-offers.ts) before saving.

/** Dollars with at most two decimals, more than zero, as micro-USD; null when it is not such an amount ($8.995 is not). */
export function parseCents(text: string): bigint | null {
  const micro = parseMoneyInput(text, 'usdt');
  return micro !== null && micro % 10_000n === 0n ? micro : null;
}

/** Micro-USD as the dollars an operator types back ("8.99", "10"). */
export const centsText = (micro: string | bigint): string =>
  (formatCoin(BigInt(micro), 'usdt', 2) ?? '').replace(/,/g, '').replace(/\.00$/, '');

export interface StepDraft { min: string; percent: string }
export interface OffersDraft { trialOn: boolean; trialHours: string; trialPrice: string; quantity: StepDraft[]; days: StepDraft[] }
/** The locale key under admin `pricing.errors` each part shows. */
export type OffersError = 'trialHours' | 'trialPrice' | 'percent' | 'quantity' | 'days' | 'overlap' | 'order' | 'stepsMax';
export interface OffersErrors { trialHours?: OffersError; trialPrice?: OffersError; quantity?: OffersError; days?: OffersError }

const stepDrafts = (steps: DiscountStep[]): StepDraft[] => steps.map((s) => ({ min: String(s.min), percent: String(s.percent) }));

export const offersDraft = (trial: Trial | null, discounts: VolumeDiscounts | null): OffersDraft => ({
  trialOn: trial !== null, trialHours: String(trial?.hours ?? 1), trialPrice: trial ? centsText(trial.price) : '',
  quantity: stepDrafts(discounts?.quantity ?? []), days: stepDrafts(discounts?.days ?? []),
});

const wholeNumber = (v: string): number => (/^\s*\d{1,6}\s*$/.test(v) ? Number(v) : Number.NaN);

function parseSteps(drafts: StepDraft[], basis: 'quantity' | 'days'): { steps: DiscountStep[]; error?: OffersError } {
  const steps = drafts.map((d) => ({ min: wholeNumber(d.min), percent: wholeNumber(d.percent) }));
  const problem = stepsProblem(steps.map((s) => ({ min: Number.isNaN(s.min) ? -1 : s.min, percent: Number.isNaN(s.percent) ? -1 : s.percent })), basis);
  return problem ? { steps, error: problem } : { steps };
}

/** The request's trial and steps, or the errors per part. */
export function parseOffers(d: OffersDraft): { ok: true; trial: Trial | null; discounts: VolumeDiscounts } | { ok: false; errors: OffersErrors } {
  const errors: OffersErrors = {};
  let trial: Trial | null = null;
  if (d.trialOn) {
    const hours = wholeNumber(d.trialHours);
    if (!(hours >= PRICING_LIMITS.trialHoursMin && hours <= PRICING_LIMITS.trialHoursMax)) errors.trialHours = 'trialHours';
    const price = parseCents(d.trialPrice);
    if (price === null) errors.trialPrice = 'trialPrice';
    if (!errors.trialHours && price !== null) trial = { hours, price: price.toString() };
  }
  const quantity = parseSteps(d.quantity, 'quantity');
  if (quantity.error) errors.quantity = quantity.error;
  const days = parseSteps(d.days, 'days');
  if (days.error) errors.days = days.error;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, trial, discounts: { quantity: quantity.steps, days: days.steps } };
}
