import { isLanguage } from '@cellport/shared/constants';
import { useEffect, type ReactNode } from 'react';
import { Redirect } from 'wouter';
import { htmlLang, i18n } from '../lib/i18n';
import { LanguageContext } from '../lib/language';

/** Validates the language segment and keeps the translations and <html lang> in step with it. */
export function LanguageRoot({ lng, children }: { lng: string | undefined; children: ReactNode }) {
  const valid = isLanguage(lng);
  useEffect(() => {
    if (!valid) return;
    document.documentElement.lang = htmlLang(lng);
    if (i18n.language !== lng) void i18n.changeLanguage(lng);
  }, [lng, valid]);
  // Any other path (spec §2) redirects to /en/dashboard.
  if (!valid) return <Redirect to="~/en/dashboard" replace />;
  return <LanguageContext.Provider value={lng}>{children}</LanguageContext.Provider>;
}
