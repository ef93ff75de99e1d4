import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { LoadingOverlay } from '../../components/ui/loading-overlay';
import { Spinner } from '../../components/ui/spinner';
import { NotificationsPoller } from '../../features/notifications/use-notifications-poll';
import { RealtimeConnection } from '../../features/realtime/realtime-connection';
import { ApiError } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useLanguage } from '../../lib/language';
import { takeRecoveryCodesLeft } from '../../lib/recovery-notice';
import { toast } from '../../lib/toast';
import { meQuery } from '../../store/user-slice';
import { ShellHeader } from './header';
import { navKeyFor } from './nav-items';
import { signInUrl } from './query-client';
import { isShellPath, ShellRoutes } from './shell-routes';
import { Sidebar } from './sidebar';
import './shell.css';

/**
 * Another language refetches what the server wrote in the page's language (payment and invoice descriptions,
 * the dashboard's notifications; the API calls send it as Accept-Language): every query is marked stale and the
 * ones on screen load again.
 */
function useRefetchOnLanguageChange(language: string): void {
  const queryClient = useQueryClient();
  const shown = useRef(language);
  useEffect(() => {
    if (shown.current === language) return;
    shown.current = language;
    void queryClient.invalidateQueries();
  }, [language, queryClient]);
}

/** The guard (GET /api/v1/me; 401 → sign-in and back) and the layout: sidebar, header, page. */
export function ShellFrame() {
  const { t } = useT(['shell', 'common']);
  const language = useLanguage();
  const me = useQuery(meQuery);
  const [path] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const title = t(`common:nav.${navKeyFor(path)}`);

  useEffect(() => { document.title = `${title} · ${t('common:appName')}`; }, [title, t]);
  // A phone's drawer closes when the page changes.
  useEffect(() => { setMenuOpen(false); }, [path]);
  useRefetchOnLanguageChange(language);
  // Signed in with a two-factor recovery code: say how many are left, once (lib/recovery-notice.ts).
  const signedIn = me.isSuccess;
  useEffect(() => {
    const left = signedIn ? takeRecoveryCodesLeft() : null;
    if (left !== null) toast.info(t('shell:recoveryCodeUsed', { count: left }));
  }, [signedIn, t]);

  // An unknown path goes to /en/dashboard first (spec §2), so a signed-out visitor comes back to a real page.
  if (!isShellPath(path)) return <Redirect to="~/en/dashboard" replace />;
  if (me.isPending) return <LoadingOverlay />;
  if (me.error instanceof ApiError && me.error.status === 401) return <Redirect to={`~${signInUrl(language)}`} replace />;
  if (me.isError) {
    return (
      <main className="shell-failure card" role="alert">
        <h1>{t('shell:loadFailed.title')}</h1>
        <p>{t('shell:loadFailed.text')}</p>
        <button type="button" className="btn" onClick={() => void me.refetch()}>{t('common:actions.retry')}</button>
      </main>
    );
  }

  return (
    <div className="shell">
      <a className="shell-skip" href="#main">{t('shell:skipToContent')}</a>
      <NotificationsPoller />
      <RealtimeConnection />
      <Sidebar open={menuOpen} onClose={() => setMenuOpen(false)} />
      <div className="shell__body">
        <ShellHeader title={title} menuOpen={menuOpen} onMenu={() => setMenuOpen((v) => !v)} />
        <main id="main" className="shell__main" tabIndex={-1}>
          <Suspense fallback={<div className="shell__page-loading"><Spinner size={28} label={t('common:loading')} /></div>}>
            <ShellRoutes />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
