import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MICRO_PER_CENT, PERIOD_DAYS, roundToCent, unitPrice } from './catalog.js';
import { percentOff, purchasePrice } from './pricing.js';
import { PRICING_LIMITS, stepPercent, stepsProblem, trialSchema, volumeDiscountsSchema, volumePercent, type DiscountStep } from './tariff-offers.js';

// Issue 27, items 2 and 8: a trial and the volume discounts keep every charged amount whole cents, rounded once.
const price = fc.bigInt({ min: 0n, max: 10n ** 10n });
const quantity = fc.integer({ min: 1, max: 50 });
const days = fc.constantFrom(...Object.values(PERIOD_DAYS));
const percent = fc.integer({ min: 0, max: 90 });
/** Valid steps: distinct sizes, percents not falling as the size grows. */
const steps = (lo: number, hi: number) => fc.uniqueArray(fc.integer({ min: lo, max: hi }), { maxLength: 8 })
  .chain((mins) => fc.array(percent, { minLength: mins.length, maxLength: mins.length }).map((ps) => {
    const sortedMins = [...mins].sort((a, b) => a - b);
    const sortedPs = [...ps].sort((a, b) => a - b);
    return sortedMins.map((min, i) => ({ min, percent: sortedPs[i]! }));
  }));
const discounts = fc.record({ quantity: steps(2, 50), days: steps(1, 365) });
const coupon = fc.option(fc.oneof(
  fc.integer({ min: 1, max: 100 }).map((p) => ({ type: 'percent' as const, percent: p })),
  fc.bigInt({ min: 1n, max: 10n ** 9n }).map((amount) => ({ type: 'fixed' as const, amount: amount.toString() })),
), { nil: null });

describe('purchasePrice', () => {
  it('every line is whole cents, the lines add up, and the volume discount is the step rounded once, half-up', () => {
    fc.assert(fc.property(price, quantity, days, discounts, coupon, (p, q, d, steps, c) => {
      const b = purchasePrice({ price: p, quantity: q, days: d, discounts: steps, trial: null, coupon: c });
      for (const v of [b.subtotal, b.volumeDiscount, b.couponDiscount, b.total]) {
        expect(v % MICRO_PER_CENT).toBe(0n);
        expect(v >= 0n).toBe(true);
      }
      expect(b.subtotal).toBe(unitPrice(p) * BigInt(q));
      expect(b.subtotal - b.volumeDiscount - b.couponDiscount).toBe(b.total);
      expect(b.volumePercent).toBe(Math.min(90, stepPercent(steps.quantity, q) + stepPercent(steps.days, d)));
      // What is left after the step is subtotal × (100 − percent) / 100, rounded once, half-up.
      expect(b.subtotal - b.volumeDiscount).toBe(roundToCent(b.subtotal * BigInt(100 - b.volumePercent), 100n));
      expect(b.volumeDiscount <= (b.subtotal * 9n) / 10n + MICRO_PER_CENT).toBe(true);
    }));
  });

  it('a larger order never costs less per port than the steps allow, and never more than without them', () => {
    fc.assert(fc.property(price, quantity, days, discounts, (p, q, d, steps) => {
      const plain = purchasePrice({ price: p, quantity: q, days: d, discounts: { quantity: [], days: [] }, trial: null, coupon: null });
      const stepped = purchasePrice({ price: p, quantity: q, days: d, discounts: steps, trial: null, coupon: null });
      expect(stepped.total <= plain.total).toBe(true);
    }));
  });

  it('a trial is its own price, one port, with no discount of any kind', () => {
    fc.assert(fc.property(price, fc.bigInt({ min: 1n, max: 10n ** 8n }), discounts, coupon, (p, cents, steps, c) => {
      const trial = { hours: 1, price: (cents * MICRO_PER_CENT).toString() };
      const b = purchasePrice({ price: p, quantity: 1, days: 30, discounts: steps, trial, coupon: c });
      expect(b).toEqual({ subtotal: cents * MICRO_PER_CENT, volumePercent: 0, volumeDiscount: 0n, couponDiscount: 0n, total: cents * MICRO_PER_CENT });
    }));
  });

  it('worked examples: 5+ ports −5 %, 10+ −10 %, 30 days −5 %', () => {
    const steps = { quantity: [{ min: 5, percent: 5 }, { min: 10, percent: 10 }], days: [{ min: 30, percent: 5 }] };
    // 10 × $8.99 = $89.90; −10 % (10 ports) −5 % (a month) = −15 %: $76.415 → $76.42 to pay, $13.48 off.
    const b = purchasePrice({ price: 8_990_000n, quantity: 10, days: 30, discounts: steps, trial: null, coupon: null });
    expect([b.subtotal, b.volumePercent, b.volumeDiscount, b.total]).toEqual([89_900_000n, 15, 13_480_000n, 76_420_000n]);
    // 4 weekly ports: no step.
    expect(purchasePrice({ price: 8_990_000n, quantity: 4, days: 7, discounts: steps, trial: null, coupon: null }).volumeDiscount).toBe(0n);
    // 7 weekly ports at $3.33: $23.31, −5 % = $22.1445 → $22.14; a 10 % coupon on that: $19.926 → $19.93.
    const c = purchasePrice({ price: 3_330_000n, quantity: 7, days: 7, discounts: steps, trial: null, coupon: { type: 'percent', percent: 10 } });
    expect([c.volumeDiscount, c.couponDiscount, c.total]).toEqual([1_170_000n, 2_210_000n, 19_930_000n]);
    expect(percentOff(10_000n, 50)).toBe(0n); // 1 cent, 50 % off: half a cent left rounds up to 1 cent.
  });
});

describe('the operator\'s steps and trial', () => {
  it('refuses two steps of one size, a falling discount, and percents outside 0-90', () => {
    const s = (min: number, p: number): DiscountStep => ({ min, percent: p });
    expect(stepsProblem([s(5, 5), s(10, 10)], 'quantity')).toBeNull();
    expect(stepsProblem([s(5, 5), s(5, 10)], 'quantity')).toBe('overlap');
    expect(stepsProblem([s(5, 10), s(10, 5)], 'quantity')).toBe('order');
    expect(stepsProblem([s(5, 91)], 'quantity')).toBe('percent');
    expect(stepsProblem([s(5, 2.5)], 'quantity')).toBe('percent');
    expect(stepsProblem([s(1, 5)], 'quantity')).toBe('quantity');
    expect(stepsProblem([s(366, 5)], 'days')).toBe('days');
    expect(volumeDiscountsSchema.safeParse({ quantity: [s(5, 5), s(5, 6)], days: [] }).success).toBe(false);
    expect(volumeDiscountsSchema.safeParse({ quantity: [s(10, 10), s(5, 5)], days: [s(30, 5)] }).success).toBe(true);
    expect(volumePercent({ quantity: [s(2, 60)], days: [s(1, 60)] }, 2, 1)).toBe(PRICING_LIMITS.percentMax);
  });

  it('a trial costs whole cents, more than nothing, for 1-72 hours', () => {
    expect(trialSchema.safeParse({ hours: 1, price: '990000' }).success).toBe(true);
    expect(trialSchema.safeParse({ hours: 1, price: '995000' }).success).toBe(false);
    expect(trialSchema.safeParse({ hours: 1, price: '0' }).success).toBe(false);
    expect(trialSchema.safeParse({ hours: 0, price: '990000' }).success).toBe(false);
    expect(trialSchema.safeParse({ hours: 73, price: '990000' }).success).toBe(false);
  });
});
