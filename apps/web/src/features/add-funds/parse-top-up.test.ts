import { describe, expect, it } from 'vitest';
import { parseTopUp } from './parse-top-up';

describe('custom top-up amount (spec §5: minimum 1)', () => {
  it('accepts whole dollars and cents', () => {
    expect(parseTopUp('50')).toBe(50_000_000n);
    expect(parseTopUp('1')).toBe(1_000_000n);
    expect(parseTopUp('12.5')).toBe(12_500_000n);
    expect(parseTopUp('$ 7,25')).toBe(7_250_000n);
  });

  it('refuses less than $1, too many decimals, too much and text', () => {
    expect(parseTopUp('0.99')).toBeNull();
    expect(parseTopUp('0')).toBeNull();
    expect(parseTopUp('1.005')).toBeNull();
    expect(parseTopUp('100001')).toBeNull();
    expect(parseTopUp('ten')).toBeNull();
    expect(parseTopUp('')).toBeNull();
  });
});
