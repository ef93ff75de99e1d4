import { useT } from '../../../lib/i18n';

/** Previous / next with "page 2 of 7 · 312 in all"; hidden when everything fits on one page. */
export function Pagination({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const { t } = useT('admin');
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="admin-pagination" aria-label={t('pagination.label')}>
      <p>{t('pagination.status', { page, pages, total })}</p>
      {pages > 1 ? (
        <div className="admin-pagination__buttons">
          <button type="button" className="btn btn--secondary btn--sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>{t('pagination.previous')}</button>
          <button type="button" className="btn btn--secondary btn--sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>{t('pagination.next')}</button>
        </div>
      ) : null}
    </nav>
  );
}
