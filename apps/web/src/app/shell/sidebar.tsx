import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { useT } from '../../lib/i18n';
import { useSettings } from '../../store/settings';
import { useUser } from '../../store/user-slice';
import { icons } from '../../components/ui/icons';
import { LanguageSwitcher } from './language-switcher';
import { DOCUMENTATION_NAV, MAIN_NAV, navKeyFor, PAYMENT_NAV, SUPPORT_NAV, type NavItem } from './nav-items';

export const SIDEBAR_ID = 'shell-sidebar';
export const MENU_BUTTON_ID = 'shell-menu-button';

/**
 * Spec §2 sidebar: Main and Support sections, plus the payment pages. On wide screens it is always shown; on
 * phones it is a drawer behind the header's menu button (Esc or the backdrop closes it, focus moves in and back).
 */
export function Sidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useT(['shell', 'common']);
  const [path] = useLocation();
  const activeKey = navKeyFor(path);
  const documentationUrl = useSettings().documentationUrl;
  const isOperator = useUser().me?.role === 'admin';
  const navRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!open) return;
    navRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      onClose();
      document.getElementById(MENU_BUTTON_ID)?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  const link = (item: NavItem) => (
    <li key={item.key}>
      <Link href={item.path} className="sidebar__link" aria-current={activeKey === item.key ? 'page' : undefined}>
        {icons[item.icon]}
        <span>{t(`common:nav.${item.key}`)}</span>
      </Link>
    </li>
  );

  return (
    <>
      <div className="shell-backdrop" data-open={open} onClick={onClose} aria-hidden="true" />
      <nav ref={navRef} id={SIDEBAR_ID} className="sidebar" data-open={open} aria-label={t('shell:navigation')}>
        <div className="sidebar__brand">
          <Link href="/dashboard" className="sidebar__logo">
            <span className="sidebar__logo-mark" aria-hidden="true">{icons.proxies}</span>
            <span>{t('common:appName')}</span>
          </Link>
          <button type="button" className="sidebar__close" onClick={onClose} aria-label={t('shell:closeMenu')}>
            {icons.close}
          </button>
        </div>
        <div className="sidebar__scroll">
          <h2 className="sidebar__section">{t('common:nav.main')}</h2>
          <ul className="sidebar__list">{MAIN_NAV.map(link)}</ul>

          <h2 className="sidebar__section">{t('common:nav.support')}</h2>
          <ul className="sidebar__list">
            {link(SUPPORT_NAV)}
            {documentationUrl ? (
              <li>
                <a href={documentationUrl} className="sidebar__link" target="_blank" rel="noopener noreferrer">
                  {icons.documentation}
                  <span>{t('common:nav.documentation')}</span>
                  <span className="sidebar__external">{icons.external}<span className="visually-hidden">{t('common:opensInNewTab')}</span></span>
                </a>
              </li>
            ) : link(DOCUMENTATION_NAV)}
          </ul>

          <h2 className="sidebar__section">{t('shell:payments')}</h2>
          <ul className="sidebar__list">{PAYMENT_NAV.map(link)}</ul>

          {isOperator ? (
            <>
              <h2 className="sidebar__section">{t('shell:operator')}</h2>
              <ul className="sidebar__list">
                <li><Link href="/admin" className="sidebar__link" data-testid="console-link">{icons.shield}<span>{t('shell:console')}</span></Link></li>
              </ul>
            </>
          ) : null}
        </div>
        <div className="sidebar__footer">
          <LanguageSwitcher />
        </div>
      </nav>
    </>
  );
}
