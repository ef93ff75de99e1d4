import { FALLBACK_LANGUAGE, type Language } from '@cellport/shared/constants';
import { useEffect, useReducer } from 'react';
import { Translator, type TFunction } from './translator';

export type { TFunction, TOptions } from './translator';

/** The HTML lang attribute for our language codes (cn is our segment for Simplified Chinese). */
export const htmlLang = (language: Language) => (language === 'cn' ? 'zh-CN' : language);

// Translations come from the server at /locales/{lng}/{ns}.js (JSON), looked up by a translator of our own that keeps
// i18next's conventions (lib/translator.ts): the sign-in page stays small (docs/decisions/002).
export const i18n = new Translator(FALLBACK_LANGUAGE, FALLBACK_LANGUAGE, async (language, ns) => {
  const r = await fetch(`/locales/${language}/${ns}.js`, { credentials: 'same-origin' });
  if (!r.ok) throw new Error(`locale ${language}/${ns}: ${r.status}`);
  return r.json();
}, (language) => htmlLang(language as Language));

export function initI18n(language: Language): Promise<void> {
  i18n.language = language;
  return i18n.init(['common', 'errors']);
}

const pending = new Map<string, Promise<unknown>>();
const ready = (namespaces: string[]) => i18n.isInitialized && namespaces.every((ns) => i18n.hasLoadedNamespace(ns));
const initialized = () => new Promise<void>((resolve) => {
  const off = i18n.subscribe(() => { if (i18n.isInitialized) { off(); resolve(); } });
});

/**
 * `t` for the given namespaces, suspending until they are loaded and re-rendering when the language changes.
 * The first namespace is the default for keys without a `ns:` prefix.
 */
export function useT(ns: string | readonly string[] = 'common'): { t: TFunction; language: Language } {
  const namespaces = typeof ns === 'string' ? [ns] : [...ns];
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => i18n.subscribe(rerender), []);
  if (!ready(namespaces)) {
    const key = `${i18n.language}|${namespaces.join(',')}`;
    let promise = pending.get(key);
    if (!promise) {
      promise = (i18n.isInitialized ? Promise.resolve() : initialized())
        .then(() => i18n.loadNamespaces(namespaces))
        .finally(() => pending.delete(key));
      pending.set(key, promise);
    }
    throw promise;
  }
  return { t: i18n.fixedT(namespaces), language: (i18n.language as Language) ?? FALLBACK_LANGUAGE };
}
