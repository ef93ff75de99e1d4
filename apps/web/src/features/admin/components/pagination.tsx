import { useT } from '../../../lib/i18n';
import { count } from '../lib/format';
import { pagerState, type PagedList } from '../lib/pager';

/**
 * Previous / next with "page 2 of 7 · 312 in all", or "page 2 · 10,000+ in all" when the server capped the count
 * (decision 029); hidden when everything fits on one page.
 */
export function Pagination({ list, onPage }: { list: PagedList; onPage: (page: number) => void }) {
  const { t, language } = useT('admin');
  const { pages, hasPrevious, hasNext } = pagerState(list);
  const total = count(list.total, language);
  return (
    <nav className="admin-pagination" aria-label={t('pagination.label')}>
      <p>{pages === null ? t('pagination.statusCapped', { page: list.page, total }) : t('pagination.status', { page: list.page, pages, total })}</p>
      {hasPrevious || hasNext ? (
        <div className="admin-pagination__buttons">
          <button type="button" className="btn btn--secondary btn--sm" disabled={!hasPrevious} onClick={() => onPage(list.page - 1)}>{t('pagination.previous')}</button>
          <button type="button" className="btn btn--secondary btn--sm" disabled={!hasNext} onClick={() => onPage(list.page + 1)}>{t('pagination.next')}</button>
        </div>
      ) : null}
    </nav>
  );
}
