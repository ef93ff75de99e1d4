import { isLanguage, LANGUAGES } from '@cellport/shared/constants';
import { useId } from 'react';
import { useLocation } from 'wouter';
import { useT } from '../../../lib/i18n';
import { useLanguage, withLanguage } from '../../../lib/language';

/** Switches the console's language by rewriting the first path segment; the page and its query stay. */
export function AdminLanguageSwitcher() {
  const { t } = useT('common');
  const language = useLanguage();
  const [, navigate] = useLocation();
  const id = useId();
  return (
    <div className="admin-language">
      <label htmlFor={id}>{t('language')}</label>
      <select
        id={id}
        value={language}
        onChange={(event) => {
          const next = event.target.value;
          if (isLanguage(next)) navigate(`~${withLanguage(location.pathname, next)}${location.search}`);
        }}
      >
        {LANGUAGES.map((lng) => <option key={lng} value={lng} lang={lng === 'cn' ? 'zh-CN' : lng}>{t(`languages.${lng}`)}</option>)}
      </select>
    </div>
  );
}
