import { describe, expect, it } from 'vitest';
import { decimalToMicro, satToMicroUsd, toDecimalRate } from './decimal-rate.js';

describe('decimal rates without float arithmetic', () => {
  it('turns ticker values into canonical decimal strings', () => {
    expect(toDecimalRate(64123.45)).toBe('64123.45');
    expect(toDecimalRate(0.1 + 0.2)).toBe('0.30000000000000004'); // exactly what the double is, not a guess
    expect(toDecimalRate(70000)).toBe('70000');
    expect(toDecimalRate('064123.4500')).toBe('64123.45');
    expect(toDecimalRate(' 1.5 ')).toBe('1.5');
  });

  it('refuses what is not a plain positive decimal', () => {
    for (const bad of [0, -1, NaN, Infinity, 1e21, 5e-7, '1e5', '', 'abc', '1,5', null, undefined, {}, '0.000']) {
      expect(toDecimalRate(bad)).toBeNull();
    }
  });

  it('converts to integer micro-units by string math, truncating past 6 places', () => {
    expect(decimalToMicro('64123.45')).toBe(64_123_450_000n);
    expect(decimalToMicro('64123.4567899')).toBe(64_123_456_789n);
    expect(decimalToMicro('1')).toBe(1_000_000n);
    expect(decimalToMicro('0.30000000000000004')).toBe(300_000n);
    expect(() => decimalToMicro('1e5')).toThrow(RangeError);
  });

  it('values satoshi in micro-USD, truncated', () => {
    const rate = decimalToMicro('64123.45');
    expect(satToMicroUsd(100_000_000n, rate)).toBe(64_123_450_000n); // 1 BTC
    expect(satToMicroUsd(1n, rate)).toBe(641n); // 0.00064123 USD, truncated to 0.000641
    expect(satToMicroUsd(2_100_000_000_000_000n, rate)).toBe(1_346_592_450_000_000_000n); // 21M BTC, no overflow
  });
});
