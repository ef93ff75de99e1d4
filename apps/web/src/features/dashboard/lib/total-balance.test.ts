import { describe, expect, it } from 'vitest';
import { totalBalanceDollars, usdToMicro } from './total-balance';

describe('total balance (spec §9)', () => {
  it('adds the BTC balance at the rate to the USDT balance and truncates to whole dollars', () => {
    // $10.99 + 0.001 BTC × $97,123.45 = $10.99 + $97.12345 = $108.11345 → 108
    expect(totalBalanceDollars('10990000', '100000', '97123.45')).toBe(108n);
    // Truncated, never rounded: $0.999999 + nothing → 0
    expect(totalBalanceDollars('999999', '0', '97000')).toBe(0n);
  });

  it('keeps exact digits where floats would not (1 satoshi at a high rate)', () => {
    expect(totalBalanceDollars('0', '100000000', '100000.000001')).toBe(100000n);
    expect(usdToMicro('100000.000001')).toBe(100000000001n);
  });

  it('is unknown without a rate or with a malformed one', () => {
    expect(totalBalanceDollars('1000000', '1', null)).toBeNull();
    expect(totalBalanceDollars('1000000', '1', '1e5')).toBeNull();
    expect(totalBalanceDollars(undefined, '1', '1')).toBeNull();
  });
});
