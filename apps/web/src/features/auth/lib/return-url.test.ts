import { describe, expect, it } from 'vitest';
import { returnUrl } from './return-url';

describe('returnUrl (spec §4: the return URL if longer than 2 characters, otherwise the root)', () => {
  it('keeps a same-origin path with its query', () => {
    expect(returnUrl('?redirect=%2Fen%2Fproxies%3Fpage%3D2', 'en')).toBe('/en/proxies?page=2');
  });

  it('answers the root of the language for a missing or short value', () => {
    expect(returnUrl('', 'ru')).toBe('/ru');
    expect(returnUrl('?redirect=', 'cn')).toBe('/cn');
    expect(returnUrl('?redirect=/x', 'en')).toBe('/en');
    expect(returnUrl('?redirect=/ru', 'en')).toBe('/ru');
  });

  it('refuses other origins and protocol-relative or backslash tricks', () => {
    expect(returnUrl('?redirect=https%3A%2F%2Fevil.example%2F', 'en')).toBe('/en');
    expect(returnUrl('?redirect=%2F%2Fevil.example', 'en')).toBe('/en');
    expect(returnUrl('?redirect=%2F%5Cevil.example', 'en')).toBe('/en');
    expect(returnUrl('?redirect=javascript:alert(1)', 'en')).toBe('/en');
  });
});
