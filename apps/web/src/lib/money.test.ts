import { describe, expect, it } from 'vitest';
import { formatCoin, formatMinor, formatUsd, parseMinor, parseMoneyInput } from './money';

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

describe('parseMoneyInput', () => {
  it('turns dollars into micro-units without floats', () => {
    expect(parseMoneyInput('12')).toBe(12_000_000n);
    expect(parseMoneyInput('0.29')).toBe(290_000n);
    expect(parseMoneyInput('$2.5')).toBe(2_500_000n);
    expect(parseMoneyInput('1 234,56')).toBe(1_234_560_000n);
    expect(parseMoneyInput('0.000001')).toBe(1n);
    expect(parseMoneyInput('999999999999999.999999')).toBe(999_999_999_999_999_999_999n);
  });

  it('reads BTC with 8 decimals', () => {
    expect(parseMoneyInput('0.00000001', 'btc')).toBe(1n);
    expect(parseMoneyInput('1.5', 'btc')).toBe(150_000_000n);
    expect(parseMoneyInput('0.000000001', 'btc')).toBeNull();
  });

  it('accepts a sign only when asked', () => {
    expect(parseMoneyInput('-2.50')).toBeNull();
    expect(parseMoneyInput('-2.50', 'usdt', { signed: true })).toBe(-2_500_000n);
    expect(parseMoneyInput('+3', 'usdt', { signed: true })).toBe(3_000_000n);
  });

  it('refuses zero, too many decimals and what is not a number', () => {
    for (const bad of ['', '0', '0.00', '-0', '1.0000001', 'abc', '1e6', '1.2.3', '.5', '1,000.50', '$'])
      expect(parseMoneyInput(bad, 'usdt', { signed: true }), bad).toBeNull();
  });
});
