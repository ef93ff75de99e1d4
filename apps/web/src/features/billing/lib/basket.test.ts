import type { Port } from '@cellport/shared/schemas/catalog';
import { describe, expect, it } from 'vitest';
import { basketFromSearch, basketRequest, basketTotals, defaultLine, linePrice, lineValid } from './basket';

const port = (id: string, price: string, period: Port['period']) => ({ _id: id, price, period }) as Port;
const monthly = port('a', '30000000', 'month'); // $30 / 30 days
const weekly = port('b', '7000001', 'week'); // $7.000001 / 7 days: charged $7.00 a week (whole cents)

describe('renewal basket', () => {
  it('starts with the ports a link names, one period each', () => {
    expect(basketFromSearch('?ports=a,%20b,,c')).toEqual({ a: defaultLine, b: defaultLine, c: defaultLine });
    expect(basketFromSearch('')).toEqual({});
  });

  it('prices periods as price × periods', () => {
    expect(linePrice(monthly, { mode: 'periods', periods: 3, days: 1 })).toBe(90_000_000n);
  });

  it('prices custom days pro rata, rounded half-up to the cent', () => {
    expect(linePrice(monthly, { mode: 'days', periods: 1, days: 10 })).toBe(10_000_000n);
    // 7000001 × 3 / 7 = 3000000.43 micro-USD → $3.00
    expect(linePrice(weekly, { mode: 'days', periods: 1, days: 3 })).toBe(3_000_000n);
    // $8.99 × 3 / 7 = $3.852857… → $3.85 (issue 27, item 2)
    expect(linePrice(port('c', '8990000', 'week'), { mode: 'days', periods: 1, days: 3 })).toBe(3_850_000n);
  });

  it('totals only the chosen ports and applies the coupon to the sum', () => {
    const basket = { a: { mode: 'periods' as const, periods: 1, days: 1 }, b: { mode: 'periods' as const, periods: 2, days: 1 } };
    expect(basketTotals([monthly, weekly], basket, null)).toEqual({ subtotal: 44_000_000n, discount: 0n, total: 44_000_000n });
    expect(basketTotals([monthly, weekly], { a: basket.a }, { name: 'X', type: 'percent', percent: 50 }))
      .toEqual({ subtotal: 30_000_000n, discount: 15_000_000n, total: 15_000_000n });
  });

  it('0 days (or 366, or nothing typed) is a line that is not valid: no price, not counted, never taken as 1 day', () => {
    for (const days of [0, -1, 366, Number.NaN]) {
      const line = { mode: 'days' as const, periods: 1, days };
      expect(lineValid(line)).toBe(false);
      expect(linePrice(monthly, line)).toBeNull();
      expect(basketTotals([monthly], { a: line }, null)).toEqual({ subtotal: 0n, discount: 0n, total: 0n });
    }
    expect(lineValid({ mode: 'days', periods: 1, days: 1 })).toBe(true);
    expect(lineValid({ mode: 'periods', periods: 1, days: 0 })).toBe(true);
  });

  it('sends periods or days per port', () => {
    expect(basketRequest({ a: { mode: 'periods', periods: 2, days: 9 }, b: { mode: 'days', periods: 4, days: 9 } }))
      .toEqual({ a: { periods: 2 }, b: { days: 9 } });
  });
});
