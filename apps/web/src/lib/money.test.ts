import { describe, expect, it } from 'vitest';
import { formatCoin, formatMinor, formatUsd, parseMinor } from './money';

describe('money formatting', () => {
  it('shows USDT micro-units as dollars with 2 decimals, truncating', () => {
    expect(formatUsd('12345678')).toBe('$12.34');
    expect(formatUsd('12349999')).toBe('$12.34');
    expect(formatUsd('0')).toBe('$0.00');
    expect(formatUsd('290000')).toBe('$0.29');
    expect(formatUsd('5')).toBe('$0.00');
    expect(formatUsd('1234567890123')).toBe('$1,234,567.89');
    expect(formatUsd(99_999_999_999_999_999_999n)).toBe('$99,999,999,999,999.99');
  });

  it('keeps the sign of debts and drops it on a zero that truncation produced', () => {
    expect(formatUsd('-1500000')).toBe('-$1.50');
    expect(formatMinor(-5n, 1_000_000n, 2)).toBe('0.00');
  });

  it('shows BTC satoshi with 8 decimals', () => {
    expect(formatCoin('123456789', 'btc')).toBe('1.23456789');
    expect(formatCoin('1', 'btc')).toBe('0.00000001');
    expect(formatCoin('150000000', 'btc', 6)).toBe('1.500000');
  });

  it('refuses what is not an integer amount', () => {
    for (const bad of ['', '1.5', '1e6', 'abc', null, undefined]) expect(parseMinor(bad)).toBeNull();
    expect(formatUsd('12.5')).toBeNull();
  });
});
