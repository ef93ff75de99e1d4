import { useEffect } from 'react';
import { Redirect } from 'wouter';
import { LoadingOverlay } from '../../../components/ui/loading-overlay';
import { ApiError } from '../../../lib/api';
import { useT } from '../../../lib/i18n';
import { useLanguage } from '../../../lib/language';
import { useAdminMe } from '../api/get-me';
import { signInUrl } from '../admin-query-client';
import { AdminLayout } from './admin-layout';

/** GET /api/v1/me decides: a visitor signs in and comes back, a customer sees 403, an admin gets the console. */
export function AdminGuard() {
  const { t } = useT(['admin', 'common']);
  const language = useLanguage();
  const me = useAdminMe();
  useEffect(() => { document.title = `${t('admin:title')} · ${t('common:appName')}`; }, [t]);

  if (me.isPending) return <LoadingOverlay />;
  if (me.error instanceof ApiError && me.error.status === 401) return <Redirect to={`~${signInUrl(language)}`} replace />;
  if (me.isError) {
    return (
      <main className="admin-failure card" role="alert">
        <h1>{t('admin:loadFailed.title')}</h1>
        <p>{t('admin:loadFailed.text')}</p>
        <button type="button" className="btn" onClick={() => void me.refetch()}>{t('common:actions.retry')}</button>
      </main>
    );
  }
  if (me.data.role !== 'admin') {
    return (
      <main className="admin-failure card">
        <p className="admin-failure__code" aria-hidden="true">403</p>
        <h1>{t('admin:forbidden.title')}</h1>
        <p>{t('admin:forbidden.text')}</p>
        <a className="btn" href={`/${language}/dashboard`}>{t('common:actions.backToDashboard')}</a>
      </main>
    );
  }
  return <AdminLayout operatorName={me.data.name || me.data.email} />;
}
