import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import { errorText } from '../../../lib/translate-api-error';

/** The loading and error states every console page shares; `children` renders the loaded data. */
export function QueryView<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const { t } = useT(['admin', 'errors', 'common']);
  if (query.isPending) return <div className="admin-state"><Spinner size={24} label={t('admin:loading')} /></div>;
  if (query.isError) {
    return (
      <div className="admin-state admin-state--error" role="alert">
        <p>{t('admin:loadError')} {errorText(t, query.error)}</p>
        <button type="button" className="btn btn--secondary btn--sm" onClick={() => void query.refetch()}>{t('common:actions.retry')}</button>
      </div>
    );
  }
  return <>{children(query.data)}</>;
}

/** An empty list: what is missing and, optionally, what to do. */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return <tr><td colSpan={colSpan} className="admin-table__empty">{children}</td></tr>;
}
