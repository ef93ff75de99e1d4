import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// admin.json in en, ru and cn: the same keys (plural forms per language), no empty text, the same placeholders,
// and every admin key the console's code names exists.
const root = join(__dirname, '../../../../../packages/shared/locales');
const languages = ['en', 'ru', 'cn'] as const;
const PLURAL = /_(zero|one|two|few|many|other)$/;
const requiredForms = { en: ['one', 'other'], ru: ['one', 'few', 'many', 'other'], cn: ['other'] } as const;

type Tree = { [key: string]: string | Tree };
const load = (lng: string) => JSON.parse(readFileSync(join(root, lng, 'admin.json'), 'utf8')) as Tree;
const leaves = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value] as [string, string]]);
const files = Object.fromEntries(languages.map((lng) => [lng, leaves(load(lng))])) as Record<(typeof languages)[number], [string, string][]>;
const baseKeys = (lng: (typeof languages)[number]) => [...new Set(files[lng].map(([k]) => k.replace(PLURAL, '')))].sort();

describe('admin.json', () => {
  it('has the same keys in en, ru and cn, none empty', () => {
    expect(baseKeys('ru')).toEqual(baseKeys('en'));
    expect(baseKeys('cn')).toEqual(baseKeys('en'));
    for (const lng of languages) for (const [key, text] of files[lng]) expect(text.trim(), `${lng}:${key}`).not.toBe('');
  });

  it('has every plural form each language needs', () => {
    for (const lng of languages) {
      const keys = new Set(files[lng].map(([k]) => k));
      const plurals = new Set([...keys].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
      for (const key of plurals) for (const form of requiredForms[lng]) expect(keys.has(`${key}_${form}`), `${lng}:${key}_${form}`).toBe(true);
    }
  });

  it('uses the same {{placeholders}} in every language', () => {
    const placeholders = (lng: (typeof languages)[number]) => Object.fromEntries(files[lng].map(([k, text]) =>
      [k.replace(PLURAL, ''), [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).filter((p) => p !== 'count').sort().join(',')]));
    expect(placeholders('ru')).toEqual(placeholders('en'));
    expect(placeholders('cn')).toEqual(placeholders('en'));
  });

  it('holds every key the console code names', () => {
    const en = new Set(baseKeys('en'));
    const groups = new Set(Object.keys(load('en')));
    const sources = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sources(path);
      return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
    });
    const missing: string[] = [];
    for (const file of sources(__dirname)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/'(?:admin:)?([a-zA-Z0-9_]+(?:\.[a-zA-Z0-9_]+)*)'/g)) {
        const key = match[1]!;
        const group = key.split('.')[0]!;
        // Only strings shaped like our keys: a known top-level group, and a leaf (not a prefix such as 'nav').
        if (!groups.has(group) || typeof load('en')[group] === 'object' && !key.includes('.')) continue;
        if (!en.has(key)) missing.push(`${key} (${file.slice(__dirname.length + 1)})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
