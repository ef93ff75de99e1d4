import type { TFunction } from '../../../lib/i18n';
import { describe, expect, it } from 'vitest';
import en from '../../../../../../packages/shared/locales/en/payments.json';
import { productLine, type ProductFields } from './product-line';

// A tiny `t` over the real English file: the test checks the wording a person reads.
const t = ((key: string, values: Record<string, unknown> = {}) => {
  const [, path] = key.split(':') as [string, string];
  let text = path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en) as string;
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`{{${name}}}`, String(value));
  return text;
}) as unknown as TFunction;

const base: ProductFields = { kind: 'purchase', basket: null, modemNames: [], countryName: 'Germany', tariffName: { en: 'Standard', ru: 'Стандарт', cn: '标准' }, modemCount: 2 };

describe('crypto product line (spec §4)', () => {
  it('a purchase names the country, the tariff and the port count', () => {
    expect(productLine(t, 'en', base)).toBe('4G Germany Standard - 2x port');
    expect(productLine(t, 'ru', base)).toContain('Стандарт');
  });

  it('a basket reads Renewal for the port names', () => {
    expect(productLine(t, 'en', { ...base, kind: 'renewal', basket: { a: { periods: 1 } }, modemNames: ['port-1', 'port-2'] }))
      .toBe('Renewal for port-1, port-2');
  });

  it('a top-up reads Add funds', () => {
    expect(productLine(t, 'en', { ...base, kind: 'topup', tariffName: null, modemCount: null })).toBe('Add funds');
  });
});
