import { LANGUAGES } from '@cellport/shared/constants';
import type { TFunction } from '../../../lib/i18n';
import { Link } from 'wouter';
import { useLanguage, withLanguage } from '../../../lib/language';

/**
 * Links to the same page in each language: the first path segment is rewritten (spec §2), and the query and
 * hash (an invitation token) are kept.
 */
export function LanguageSwitcher({ t }: { t: TFunction }) {
  const current = useLanguage();
  const { pathname, search, hash } = window.location;
  return (
    <nav className="auth-languages" aria-label={t('common:language')}>
      {LANGUAGES.map((language) => (
        <Link
          key={language}
          href={`~${withLanguage(pathname, language)}${search}${hash}`}
          className="auth-languages__link"
          aria-current={language === current ? 'true' : undefined}
          lang={language === 'cn' ? 'zh-CN' : language}
        >
          {t(`common:languages.${language}`)}
        </Link>
      ))}
    </nav>
  );
}
