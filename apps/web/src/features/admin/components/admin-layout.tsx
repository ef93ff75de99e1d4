import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { icons } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import { useLanguage } from '../../../lib/language';
import { NotificationsBell, useNotificationsPoll } from '../../notifications';
import { ADMIN_NAV, adminNavFor } from '../admin-nav';
import { AdminLanguageSwitcher } from './admin-language-switcher';
import { SupportNavBadge } from './support-nav-badge';
import { AdminRoutes } from './admin-routes';

const SIDEBAR_ID = 'admin-sidebar';
const MENU_BUTTON_ID = 'admin-menu-button';

/**
 * The console's frame: its own sidebar (a drawer on phones), a header with the bell (the farm's alerts, issue 28 item
 * 8), the operator and a way back.
 */
export function AdminLayout({ operatorName }: { operatorName: string }) {
  const { t } = useT(['admin', 'common']);
  useNotificationsPoll();
  const language = useLanguage();
  const [path] = useLocation();
  const [open, setOpen] = useState(false);
  const navRef = useRef<HTMLElement>(null);
  const current = adminNavFor(path);
  const title = t(`admin:nav.${current?.key ?? 'overview'}`);

  useEffect(() => { document.title = `${title} · ${t('admin:title')}`; }, [title, t]);
  useEffect(() => { setOpen(false); }, [path]);
  useEffect(() => {
    if (!open) return;
    navRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      document.getElementById(MENU_BUTTON_ID)?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <div className="admin">
      <a className="admin-skip" href="#admin-main">{t('admin:skipToContent')}</a>
      <div className="admin-backdrop" data-open={open} onClick={() => setOpen(false)} aria-hidden="true" />
      <nav ref={navRef} id={SIDEBAR_ID} className="admin-sidebar" data-open={open} aria-label={t('admin:navigation')}>
        <div className="admin-sidebar__brand">
          <Link href="/" className="admin-sidebar__logo">
            <span className="admin-sidebar__mark" aria-hidden="true">{icons.shield}</span>
            <span>{t('admin:title')}</span>
          </Link>
          <button type="button" className="admin-sidebar__close" onClick={() => setOpen(false)} aria-label={t('admin:closeMenu')}>
            {icons.close}
          </button>
        </div>
        <ul className="admin-sidebar__list">
          {ADMIN_NAV.map((item) => (
            <li key={item.key}>
              <Link href={item.path} className="admin-sidebar__link" aria-current={current?.key === item.key ? 'page' : undefined}>
                {t(`admin:nav.${item.key}`)}
                {item.key === 'support' ? <SupportNavBadge /> : null}
              </Link>
            </li>
          ))}
        </ul>
        <div className="admin-sidebar__footer"><AdminLanguageSwitcher /></div>
      </nav>
      <div className="admin__body">
        <header className="admin-header">
          <button
            id={MENU_BUTTON_ID}
            type="button"
            className="admin-header__menu"
            aria-expanded={open}
            aria-controls={SIDEBAR_ID}
            onClick={() => setOpen((v) => !v)}
          >
            {icons.menu}
            <span className="visually-hidden">{t('admin:openMenu')}</span>
          </button>
          <p className="admin-header__title">{title}</p>
          <div className="admin-header__actions">
            <NotificationsBell className="admin-bell" />
            <span className="admin-header__operator" title={operatorName}>
              <span className="visually-hidden">{t('admin:signedInAs')} </span>{operatorName}
            </span>
            <a className="btn btn--secondary btn--sm" href={`/${language}/dashboard`}>{t('admin:toDashboard')}</a>
          </div>
        </header>
        <main id="admin-main" className="admin__main" tabIndex={-1}>
          <Suspense fallback={<div className="admin__page-loading"><Spinner size={28} label={t('admin:loading')} /></div>}>
            <AdminRoutes />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
