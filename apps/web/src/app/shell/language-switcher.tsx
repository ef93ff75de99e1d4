import { LANGUAGES, isLanguage } from '@cellport/shared/constants';
import { useId } from 'react';
import { useLocation } from 'wouter';
import { useT } from '../../lib/i18n';
import { useLanguage, withLanguage } from '../../lib/language';
import { icons } from '../../components/ui/icons';

/** Spec §2: the switcher rewrites the language segment of the current path and keeps the query string. */
export function LanguageSwitcher() {
  const { t } = useT('common');
  const language = useLanguage();
  const [, navigate] = useLocation();
  const id = useId();
  return (
    <div className="language-switcher">
      <label htmlFor={id} className="language-switcher__label">{icons.globe}<span>{t('language')}</span></label>
      <select
        id={id}
        className="language-switcher__select"
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
