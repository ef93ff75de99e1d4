import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The namespaces of the shell, the account page and the placeholder pages (plus common, which they extend).
const NAMESPACES = ['common', 'shell', 'account', 'pages'];
const load = (lng: string, ns: string) =>
  JSON.parse(readFileSync(new URL(`../../../../../packages/shared/locales/${lng}/${ns}.json`, import.meta.url), 'utf8')) as object;

const leaves = (value: object, prefix = ''): Array<[string, string]> =>
  Object.entries(value).flatMap(([key, inner]) =>
    inner && typeof inner === 'object' ? leaves(inner as object, `${prefix}${key}.`) : [[`${prefix}${key}`, String(inner)] as [string, string]]);
const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe.each(NAMESPACES)('%s.json', (ns) => {
  const en = new Map(leaves(load('en', ns)));
  it.each(['ru', 'cn'])('%s has the same keys as en, none empty, with the same {{variables}}', (lng) => {
    const other = new Map(leaves(load(lng, ns)));
    expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of other) {
      expect(text.trim(), `${lng}/${ns}:${key}`).not.toBe('');
      expect(variables(text), `${lng}/${ns}:${key}`).toEqual(variables(en.get(key)!));
    }
  });
});

describe('shell wording', () => {
  it('uses the spec texts for the loading overlay, the copy toast and the empty notifications list', () => {
    const common = load('en', 'common') as { loading: string; copied: string };
    const shell = load('en', 'shell') as { addFunds: string; notifications: { empty: string } };
    expect(common.loading).toBe('Loading your dashboard...');
    expect(common.copied).toBe('Copied!');
    expect(shell.addFunds).toBe('Add Funds');
    expect(shell.notifications.empty).toBe('No notifications yet');
  });
});
