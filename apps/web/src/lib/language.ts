import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@cellport/shared/constants';
import { createContext, useContext } from 'react';

/** The language is the first path segment (spec §2); anything else falls back to en. */
export function languageFromPath(pathname: string): Language {
  const first = pathname.split('/')[1];
  return isLanguage(first) ? first : FALLBACK_LANGUAGE;
}

export const LanguageContext = createContext<Language>(FALLBACK_LANGUAGE);
/** The language of the current route (provided by the /:lng route). */
export const useLanguage = () => useContext(LanguageContext);

/** Rewrites the language segment of a path (the switcher). */
export function withLanguage(pathname: string, language: Language): string {
  const parts = pathname.split('/');
  if (isLanguage(parts[1])) parts[1] = language;
  else parts.splice(1, 0, language);
  return parts.join('/') || `/${language}`;
}
