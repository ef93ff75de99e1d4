import { describe, expect, it } from 'vitest';
import { barShares, labelledIndexes } from './chart-scale';

describe('barShares', () => {
  it('scales to the largest value', () => {
    expect(barShares([0n, 500_000n, 1_000_000n])).toEqual([0, 0.5, 1]);
    expect(barShares([1n, 3n])).toEqual([0.333, 1]);
  });
  it('copes with amounts beyond 2^53 and with all zeros', () => {
    expect(barShares([2n ** 70n, 2n ** 69n])).toEqual([1, 0.5]);
    expect(barShares([0n, 0n])).toEqual([0, 0]);
    expect(barShares([])).toEqual([]);
  });
});

describe('labelledIndexes', () => {
  it('labels every bar when they fit, else spaced ones with the first and last', () => {
    expect([...labelledIndexes(3, 8)]).toEqual([0, 1, 2]);
    const picked = labelledIndexes(30, 7);
    expect(picked.has(0) && picked.has(29)).toBe(true);
    expect(picked.size).toBeLessThanOrEqual(8);
  });
});
