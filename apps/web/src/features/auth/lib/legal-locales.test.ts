import { describe, expect, it } from 'vitest';
import cn from '../../../../../../packages/shared/locales/cn/legal.json';
import en from '../../../../../../packages/shared/locales/en/legal.json';
import ru from '../../../../../../packages/shared/locales/ru/legal.json';
import { LEGAL_DOCUMENT_KINDS } from '@cellport/shared/schemas/legal';

const leaves = (value: object, prefix = ''): [string, string][] =>
  Object.entries(value).flatMap(([key, inner]) =>
    inner && typeof inner === 'object' ? leaves(inner as object, `${prefix}${key}.`) : [[`${prefix}${key}`, String(inner)] as [string, string]]);
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(',');

describe('legal.json (the Terms of Service and Refund Policy pages)', () => {
  it('has the same keys and placeholders in en, ru and cn, none empty, and a title for every document', () => {
    const base = Object.fromEntries(leaves(en));
    for (const file of [ru, cn]) {
      const own = Object.fromEntries(leaves(file));
      expect(Object.keys(own).sort()).toEqual(Object.keys(base).sort());
      for (const [key, text] of Object.entries(own)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toBe(placeholders(base[key]!));
      }
    }
    for (const kind of LEGAL_DOCUMENT_KINDS) expect(base[`titles.${kind}`]).toBeTruthy();
  });
});
