import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The namespaces of issue 5's pages: notifications bell, dashboard, traffic, documentation.
const NAMESPACES = ['notifications-ui', 'dashboard', 'traffic', 'docs'];
const load = (lng: string, ns: string) =>
  JSON.parse(readFileSync(new URL(`../../../../../packages/shared/locales/${lng}/${ns}.json`, import.meta.url), 'utf8')) as object;
const leaves = (value: object, prefix = ''): Array<[string, string]> =>
  Object.entries(value).flatMap(([key, inner]) =>
    inner && typeof inner === 'object' ? leaves(inner as object, `${prefix}${key}.`) : [[`${prefix}${key}`, String(inner)] as [string, string]]);
const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe.each(NAMESPACES)('%s.json', (ns) => {
  const en = new Map(leaves(load('en', ns)));
  it.each(['ru', 'cn'])('%s has the same keys as en, none empty or left in English, with the same {{variables}}', (lng) => {
    const other = new Map(leaves(load(lng, ns)));
    expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of other) {
      expect(text.trim(), `${lng}/${ns}:${key}`).not.toBe('');
      expect(variables(text), `${lng}/${ns}:${key}`).toEqual(variables(en.get(key)!));
      // Short technical words (In/Out are not) may match; whole English sentences may not.
      if (en.get(key)!.split(' ').length > 2) expect(text, `${lng}/${ns}:${key} is untranslated`).not.toBe(en.get(key));
    }
  });
});
