import { describe, expect, it } from 'vitest';
import { balanceEffect } from './balance-effect';

describe('what each payment method does to the balance (issue 14, item 7)', () => {
  it('the balance pays: the total comes off it', () => {
    expect(balanceEffect('balance', 7_500_000n, '10000000')).toEqual({ method: 'balance', balance: 10_000_000n, after: 2_500_000n, short: false });
  });

  it('the balance pays and does not cover the total: short', () => {
    expect(balanceEffect('balance', 20_000_000n, '19999999')).toMatchObject({ after: -1n, short: true });
  });

  it('the balance is unknown: no balance after, not short', () => {
    expect(balanceEffect('balance', 1n, null)).toMatchObject({ after: null, short: false });
  });

  it.each(['card', 'paypal', 'crypto'] as const)('%s pays the order directly: the balance stays, nothing is short', (method) => {
    const effect = balanceEffect(method, 70_000_000n, '5000000');
    expect(effect).toEqual({ method, balance: 5_000_000n, charged: 70_000_000n });
    expect(effect).not.toHaveProperty('after');
    expect(effect).not.toHaveProperty('short');
  });
});
