import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The locale files of the catalog pages (Add Proxies, Your Proxies, Billing & Renewals, Purchases). Keys must match
// across en, ru and cn, except that plural keys (_one, _few, _many, _other) carry the forms each language
// needs: Russian has four, English two, and Chinese is read with _other (we also keep _one for the fallback).
const root = join(__dirname, '../../../../../packages/shared/locales');
const namespaces = ['add-proxy', 'catalog-offers', 'proxies', 'billing', 'purchases'];
const languages = ['en', 'ru', 'cn'] as const;
const PLURAL = /_(zero|one|two|few|many|other)$/;
const requiredForms = { en: ['one', 'other'], ru: ['one', 'few', 'many', 'other'], cn: ['other'] } as const;

type Tree = { [key: string]: string | Tree };
const load = (lng: string, ns: string) => JSON.parse(readFileSync(join(root, lng, `${ns}.json`), 'utf8')) as Tree;
const leaves = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value] as [string, string]]);

describe.each(namespaces)('%s.json', (ns) => {
  const files = Object.fromEntries(languages.map((lng) => [lng, leaves(load(lng, ns))])) as Record<(typeof languages)[number], [string, string][]>;
  const base = (lng: keyof typeof files) => [...new Set(files[lng].map(([k]) => k.replace(PLURAL, '')))].sort();

  it('has the same keys in en, ru and cn, none empty', () => {
    expect(base('ru')).toEqual(base('en'));
    expect(base('cn')).toEqual(base('en'));
    for (const lng of languages) for (const [key, text] of files[lng]) expect(text.trim(), `${lng}:${key}`).not.toBe('');
  });

  it('has every plural form each language needs', () => {
    for (const lng of languages) {
      const keys = new Set(files[lng].map(([k]) => k));
      const plurals = new Set(files[lng].map(([k]) => k).filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
      for (const key of plurals) for (const form of requiredForms[lng]) expect(keys.has(`${key}_${form}`), `${lng}:${key}_${form}`).toBe(true);
    }
  });

  it('uses the same {{placeholders}} in every language', () => {
    const placeholders = (lng: keyof typeof files) => Object.fromEntries(
      files[lng].map(([k, text]) => [k.replace(PLURAL, ''), [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).filter((p) => p !== 'count').sort().join(',')]),
    );
    expect(placeholders('ru')).toEqual(placeholders('en'));
    expect(placeholders('cn')).toEqual(placeholders('en'));
  });
});
