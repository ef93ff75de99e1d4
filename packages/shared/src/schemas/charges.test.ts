import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { couponDiscount, MICRO_PER_CENT, PERIOD_DAYS, renewalPrice, roundToCent, unitPrice } from './catalog.js';

// Decision 004: a charged amount is rounded once, half-up, to a whole cent (issue 27, item 2).
const micro = fc.bigInt({ min: 0n, max: 10n ** 12n });
const periodDays = fc.constantFrom(...Object.values(PERIOD_DAYS));

describe('roundToCent', () => {
  it('gives whole cents within half a cent of the exact amount, half-up', () => {
    fc.assert(fc.property(micro, fc.bigInt({ min: 1n, max: 400n }), (n, d) => {
      const r = roundToCent(n, d);
      expect(r % MICRO_PER_CENT).toBe(0n);
      // |r − n/d| ≤ ½ cent, and exactly ½ cent rounds up: 2n − d·cent < 2·r·d ≤ 2n + d·cent.
      expect(2n * r * d > 2n * n - d * MICRO_PER_CENT).toBe(true);
      expect(2n * r * d <= 2n * n + d * MICRO_PER_CENT).toBe(true);
    }));
    expect(roundToCent(5_000n)).toBe(10_000n);
    expect(roundToCent(4_999n)).toBe(0n);
    expect(roundToCent(8_990_000n * 3n, 7n)).toBe(3_850_000n);
  });
});

describe('renewalPrice and couponDiscount', () => {
  it('a renewal is whole cents, a tariff period is its unit price, and 0 days is no renewal', () => {
    fc.assert(fc.property(micro, periodDays, fc.integer({ min: 1, max: 365 }), (price, per, days) => {
      expect(renewalPrice(price, per, { days }) % MICRO_PER_CENT).toBe(0n);
      expect(renewalPrice(price, per, { days: per })).toBe(unitPrice(price));
    }));
    expect(() => renewalPrice(1_000_000n, 7, { days: 0 })).toThrow(RangeError);
  });

  it('what a coupon leaves to pay on whole cents is whole cents, between nothing and the total', () => {
    const coupon = fc.oneof(
      fc.integer({ min: 1, max: 100 }).map((percent) => ({ type: 'percent' as const, percent })),
      fc.bigInt({ min: 1n, max: 10n ** 10n }).map((amount) => ({ type: 'fixed' as const, amount: amount.toString() })),
    );
    fc.assert(fc.property(micro.map((m) => roundToCent(m)), coupon, (total, c) => {
      const off = couponDiscount(total, c);
      expect(off >= 0n && off <= total).toBe(true);
      expect((total - off) % MICRO_PER_CENT).toBe(0n);
    }));
    // $3.85 with 15 % off: $3.2725 to pay, rounded half-up to $3.27.
    expect(couponDiscount(3_850_000n, { type: 'percent', percent: 15 })).toBe(580_000n);
  });
});
