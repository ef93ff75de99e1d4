import { describe, expect, it } from 'vitest';
import cn from '../../../../../../packages/shared/locales/cn/auth.json';
import en from '../../../../../../packages/shared/locales/en/auth.json';
import ru from '../../../../../../packages/shared/locales/ru/auth.json';

const keys = (value: object, prefix = ''): string[] =>
  Object.entries(value).flatMap(([key, inner]) =>
    inner && typeof inner === 'object' ? keys(inner as object, `${prefix}${key}.`) : [`${prefix}${key}`]);

describe('auth.json', () => {
  it('has the same keys in en, ru and cn, none of them empty', () => {
    expect(keys(ru).sort()).toEqual(keys(en).sort());
    expect(keys(cn).sort()).toEqual(keys(en).sort());
    for (const file of [en, ru, cn]) {
      for (const key of keys(file)) {
        const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], file);
        expect(typeof text === 'string' && text.trim().length > 0, key).toBe(true);
      }
    }
  });

  it('uses the spec §8 wording for the English toasts and the step names of spec §2', () => {
    expect(en.toast).toEqual({ linkSent: 'Link was sent to email', resetSent: 'Password was sent to email' });
    expect(en.signUp.steps).toEqual({ account: 'Account Information', usage: 'Proxy Usage Information', terms: 'Terms of Service' });
    expect([en.signUp.next, en.signUp.create]).toEqual(['Next Step', 'Create account']);
  });
});
