import type { TFunction } from '../../../lib/i18n';
import type { ReactNode } from 'react';
import '../auth.css';
import { Brand } from './brand';
import { LanguageSwitcher } from './language-switcher';

interface Props {
  t: TFunction;
  children: ReactNode;
  /** Shown beside the card on wide screens and below it on phones (the sign-up pitch). */
  aside?: ReactNode;
  /** A wider card for reading (the Terms of Service and the Refund Policy). */
  wide?: boolean;
}

/** The frame of the public pages: brand and language switcher, a centred card, and a footer. */
export function PublicLayout({ t, children, aside, wide }: Props) {
  return (
    <div className="auth-page">
      <header className="auth-header">
        <Brand name={t('common:appName')} />
        <LanguageSwitcher t={t} />
      </header>
      <main className={aside ? 'auth-main auth-main--split' : 'auth-main'}>
        <div className={wide ? 'auth-card auth-card--wide' : 'auth-card'}>{children}</div>
        {aside && <aside className="auth-aside">{aside}</aside>}
      </main>
      <footer className="auth-footer">
        <p>{t('auth:footer.copyright', { year: new Date().getFullYear() })}</p>
        <p>{t('auth:footer.tagline')}</p>
      </footer>
    </div>
  );
}
