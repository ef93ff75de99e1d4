import { isLanguage, LANGUAGES } from '@cellport/shared/constants';
import { useId, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { htmlLang, useT } from '../../lib/i18n';
import { useLanguage, withLanguage } from '../../lib/language';

/**
 * Spec §2: the language select rewrites the language segment of the current path and keeps the query string.
 * The dashboard shell and the operator console style it their own way through `className` (block__element names).
 */
export function LanguageSelect({ className, icon }: { className: string; icon?: ReactNode }) {
  const { t } = useT('common');
  const language = useLanguage();
  const [, navigate] = useLocation();
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className={`${className}__label`}>{icon}<span>{t('language')}</span></label>
      <select
        id={id}
        className={`${className}__select`}
        value={language}
        onChange={(event) => {
          const next = event.target.value;
          if (isLanguage(next)) navigate(`~${withLanguage(location.pathname, next)}${location.search}`);
        }}
      >
        {LANGUAGES.map((lng) => <option key={lng} value={lng} lang={htmlLang(lng)}>{t(`languages.${lng}`)}</option>)}
      </select>
    </div>
  );
}
