/** What a console list page answers about its paging (shared schemas, admin/common.ts pageOf). */
export interface PagedList { page: number; pageSize: number; total: number; totalCapped: boolean; items: readonly unknown[] }

export interface PagerState {
  /** Known number of pages; null when the total was capped ("10,000+") and the last page is not known. */
  pages: number | null;
  hasPrevious: boolean;
  hasNext: boolean;
}

/**
 * Previous / next for a list page. With an exact total, next exists up to the last page. With a capped total
 * (more than `total` match, decision 029), the pages are not all known: next exists while this page is full, so the
 * operator can still page past the cap, and stops at the first page that is not full.
 */
export function pagerState(list: PagedList): PagerState {
  const hasPrevious = list.page > 1;
  if (list.totalCapped) return { pages: null, hasPrevious, hasNext: list.items.length >= list.pageSize };
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  return { pages, hasPrevious, hasNext: list.page < pages };
}
