import { describe, expect, it } from 'vitest';
import { btcForModal, dollarsToMicro, microToCents, microToDollars, totalBalanceDollars } from './amounts';

describe('payment amounts', () => {
  it('reads typed dollars into micro-USD without floats', () => {
    expect(dollarsToMicro('50')).toBe(50_000_000n);
    expect(dollarsToMicro('12.5')).toBe(12_500_000n);
    expect(dollarsToMicro('0,29')).toBe(290_000n);
    expect(dollarsToMicro('1.234')).toBeNull();
    expect(dollarsToMicro('-1')).toBeNull();
    expect(dollarsToMicro('abc')).toBeNull();
  });

  it('writes the dollar string for crypto and PayPal, cents for the card (× 100)', () => {
    expect(microToDollars(50_000_000n)).toBe('50');
    expect(microToDollars(12_500_000n)).toBe('12.50');
    expect(microToCents(50_000_000n)).toBe(5000);
    expect(microToCents(290_000n)).toBe(29);
    expect(microToCents(290_001n)).toBe(30);
  });

  it('shows BTC with 6 decimals, truncated', () => {
    expect(btcForModal('77123456')).toBe('0.771234');
    expect(btcForModal('100000000')).toBe('1.000000');
    expect(btcForModal(null)).toBeNull();
  });

  it('totals USDT + BTC × rate, truncated to whole dollars', () => {
    // $10.99 + 0.5 BTC × 64250.50 = 10.99 + 32125.25 = 32136.24 → 32136
    expect(totalBalanceDollars('10990000', '50000000', '64250.50')).toBe(32136n);
    expect(totalBalanceDollars('999999', '0', '64250')).toBe(0n);
    expect(totalBalanceDollars('1000000', '1', '100000')).toBe(1n);
    expect(totalBalanceDollars('1000000', '1', null)).toBeNull();
  });
});
