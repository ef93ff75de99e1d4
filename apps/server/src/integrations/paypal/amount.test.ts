import { describe, expect, it } from 'vitest';
import { amountToCents, centsToAmount } from './amount.js';

describe('PayPal amounts', () => {
  it('formats integer cents as dollars with two decimals', () => {
    expect(centsToAmount(1250)).toBe('12.50');
    expect(centsToAmount(5)).toBe('0.05');
    expect(centsToAmount(100)).toBe('1.00');
    expect(centsToAmount(123456789)).toBe('1234567.89');
  });

  it('refuses non-integer or non-positive cents', () => {
    expect(() => centsToAmount(12.5)).toThrow(RangeError);
    expect(() => centsToAmount(0)).toThrow(RangeError);
  });

  it('parses amounts exactly, with string math', () => {
    expect(amountToCents('12.50')).toBe(1250);
    expect(amountToCents('0.29')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(amountToCents('-12.50')).toBe(-1250);
    expect(amountToCents('12')).toBe(1200);
    expect(amountToCents('12.5')).toBe(1250);
  });

  it('refuses anything it cannot read exactly', () => {
    for (const bad of ['', '1,250.00', '12.505', '1e3', ' 12.50', '12.', '.50', 'abc', '--1']) expect(amountToCents(bad)).toBeNull();
    expect(amountToCents(undefined)).toBeNull();
  });
});
