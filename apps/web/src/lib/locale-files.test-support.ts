import { readFileSync } from 'node:fs';

// What the locale tests read: a namespace file of packages/shared/locales, its texts as flat key → text pairs, and
// the {{variables}} a text uses (a translation must use the same ones).

/** packages/shared/locales/<lng>/<ns>.json, parsed. */
export const loadLocale = (lng: string, ns: string) =>
  JSON.parse(readFileSync(new URL(`../../../../packages/shared/locales/${lng}/${ns}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** Every text of a (nested) namespace, keyed by its dotted path. */
export const localeLeaves = (value: object, prefix = ''): Array<[string, string]> =>
  Object.entries(value).flatMap(([key, inner]) =>
    inner && typeof inner === 'object' ? localeLeaves(inner as object, `${prefix}${key}.`) : [[`${prefix}${key}`, String(inner)] as [string, string]]);

/** The {{variables}} of a text, sorted. */
export const localeVariables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
