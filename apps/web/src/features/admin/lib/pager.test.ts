import { describe, expect, it } from 'vitest';
import { pagerState } from './pager';

const items = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('pagerState', () => {
  it('with an exact total: pages known, next up to the last page', () => {
    expect(pagerState({ page: 1, pageSize: 50, total: 120, totalCapped: false, items: items(50) })).toEqual({ pages: 3, hasPrevious: false, hasNext: true });
    expect(pagerState({ page: 3, pageSize: 50, total: 120, totalCapped: false, items: items(20) })).toEqual({ pages: 3, hasPrevious: true, hasNext: false });
    expect(pagerState({ page: 1, pageSize: 50, total: 0, totalCapped: false, items: [] })).toEqual({ pages: 1, hasPrevious: false, hasNext: false });
  });
  it('with a capped total: next while the page is full, also past the cap; the number of pages is not claimed', () => {
    expect(pagerState({ page: 1, pageSize: 50, total: 10_000, totalCapped: true, items: items(50) })).toEqual({ pages: null, hasPrevious: false, hasNext: true });
    // Page 201 is past 10,000 rows: still full, so there is more.
    expect(pagerState({ page: 201, pageSize: 50, total: 10_000, totalCapped: true, items: items(50) })).toEqual({ pages: null, hasPrevious: true, hasNext: true });
    expect(pagerState({ page: 240, pageSize: 50, total: 10_000, totalCapped: true, items: items(7) })).toEqual({ pages: null, hasPrevious: true, hasNext: false });
  });
});
