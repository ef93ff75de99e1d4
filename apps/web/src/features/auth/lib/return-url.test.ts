import { describe, expect, it } from 'vitest';
import { returnUrl } from './return-url';

describe('returnUrl (spec §4: the return URL if longer than 2 characters, otherwise /)', () => {
  it('keeps a same-origin path with its query', () => {
    expect(returnUrl('?redirect=%2Fen%2Fproxies%3Fpage%3D2')).toBe('/en/proxies?page=2');
  });

  it('answers / for a missing or short value', () => {
    expect(returnUrl('')).toBe('/');
    expect(returnUrl('?redirect=')).toBe('/');
    expect(returnUrl('?redirect=/x')).toBe('/');
    expect(returnUrl('?redirect=/en')).toBe('/en');
  });

  it('refuses other origins and protocol-relative or backslash tricks', () => {
    expect(returnUrl('?redirect=https%3A%2F%2Fevil.example%2F')).toBe('/');
    expect(returnUrl('?redirect=%2F%2Fevil.example')).toBe('/');
    expect(returnUrl('?redirect=%2F%5Cevil.example')).toBe('/');
    expect(returnUrl('?redirect=javascript:alert(1)')).toBe('/');
  });
});
