import { describe, expect, it } from 'vitest';
import { priceSummary } from './price-summary';

describe('add-proxy price summary', () => {
  it('multiplies the price by the quantity without a coupon', () => {
    expect(priceSummary('2500000', 3, null, '10000000')).toEqual({
      subtotal: 7_500_000n, volumePercent: 0, volumeDiscount: 0n, discount: 0n, total: 7_500_000n, short: false,
      effect: { method: 'balance', balance: 10_000_000n, after: 2_500_000n, short: false },
    });
  });

  it('takes a percent coupon off the subtotal, rounding what is charged half-up to the cent', () => {
    // $3.333333 is charged as $3.33; 10 % off leaves $2.997 → $3.00.
    const s = priceSummary('3333333', 1, { name: 'TEN', type: 'percent', percent: 10 }, '100000000');
    expect([s.subtotal, s.discount, s.total]).toEqual([3_330_000n, 330_000n, 3_000_000n]);
  });

  it('never discounts a fixed coupon below zero', () => {
    const s = priceSummary('1000000', 2, { name: 'BIG', type: 'fixed', amount: '5000000' }, '0');
    expect([s.discount, s.total, s.short]).toEqual([2_000_000n, 0n, false]);
    expect(s.effect).toMatchObject({ after: 0n });
  });

  it('marks a short balance', () => {
    const s = priceSummary('10000000', 2, null, '19999999');
    expect(s.short).toBe(true);
    expect(s.effect).toMatchObject({ after: -1n });
  });

  it('does not claim a short balance while the balance is unknown', () => {
    expect(priceSummary('10000000', 1, null, null)).toMatchObject({ short: false, effect: { after: null } });
  });

  // Issue 14, item 7: Add Proxies with crypto showed 'Balance after payment' as if the balance paid.
  it.each(['crypto', 'card', 'paypal'] as const)('paid by %s: the balance is not used, nothing after it, never short', (method) => {
    const s = priceSummary('70000000', 1, null, '5000000', method);
    expect(s.short).toBe(false);
    expect(s.effect).toEqual({ method, balance: 5_000_000n, charged: 70_000_000n });
  });

  // Issue 27, item 8: the page shows the volume step and the trial exactly as the server prices them.
  it('takes the volume step off before the coupon, and a trial is its own price without either', () => {
    const offers = { discounts: { quantity: [{ min: 5, percent: 5 }, { min: 10, percent: 10 }], days: [{ min: 30, percent: 5 }] }, periodDays: 30, trial: null };
    const s = priceSummary('8990000', 10, { name: 'TEN', type: 'percent', percent: 10 }, '0', 'card', offers);
    // $89.90, −15 % = $76.415 → $76.42; −10 % = $68.778 → $68.78.
    expect([s.subtotal, s.volumePercent, s.volumeDiscount, s.discount, s.total]).toEqual([89_900_000n, 15, 13_480_000n, 7_640_000n, 68_780_000n]);
    const trial = priceSummary('8990000', 1, null, '0', 'card', { ...offers, trial: { hours: 1, price: '990000' } });
    expect([trial.subtotal, trial.volumeDiscount, trial.discount, trial.total]).toEqual([990_000n, 0n, 0n, 990_000n]);
  });
});
