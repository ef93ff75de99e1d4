import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@cellport/shared/constants';
import i18next, { type BackendModule, type ReadCallback, type TFunction } from 'i18next';
import { useEffect, useReducer } from 'react';

// Translations come from the server at /locales/{lng}/{ns}.js (JSON). A backend and a hook of a few lines
// replace i18next-http-backend and react-i18next to keep the sign-in page small (docs/decisions/002).
const httpBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    fetch(`/locales/${language}/${namespace}.js`, { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`locale ${language}/${namespace}: ${r.status}`))))
      .then((data) => callback(null, data), (err: Error) => callback(err, false));
  },
};

export const i18n = i18next;

export function initI18n(language: Language): Promise<unknown> {
  return i18next.use(httpBackend).init({
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: ['common', 'errors'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}

const pending = new Map<string, Promise<unknown>>();
const ready = (namespaces: string[]) =>
  i18next.isInitialized && namespaces.every((ns) => i18next.hasLoadedNamespace(ns));

/**
 * `t` for the given namespaces, suspending until they are loaded and re-rendering when the language changes.
 * The first namespace is the default for keys without a `ns:` prefix.
 */
export function useT(ns: string | readonly string[] = 'common'): { t: TFunction; language: Language } {
  const namespaces = typeof ns === 'string' ? [ns] : [...ns];
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    i18next.on('languageChanged', rerender);
    i18next.on('loaded', rerender);
    return () => { i18next.off('languageChanged', rerender); i18next.off('loaded', rerender); };
  }, []);
  if (!ready(namespaces)) {
    const key = `${i18next.language}|${namespaces.join(',')}`;
    let promise = pending.get(key);
    if (!promise) {
      promise = (i18next.isInitialized ? Promise.resolve() : new Promise((r) => i18next.on('initialized', r)))
        .then(() => i18next.loadNamespaces(namespaces))
        .finally(() => pending.delete(key));
      pending.set(key, promise);
    }
    throw promise;
  }
  return { t: i18next.getFixedT(null, namespaces), language: (i18next.language as Language) ?? FALLBACK_LANGUAGE };
}

/** The HTML lang attribute for our language codes (cn is our segment for Simplified Chinese). */
export const htmlLang = (language: Language) => (language === 'cn' ? 'zh-CN' : language);
