import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect.js';

/** Origins the answer is resolved against, as a browser resolves a Location header against the request URL. */
const BASES = ['http://localhost:3000/signin', 'https://shop.example/en/sign-in?redirect=x#y', 'http://127.0.0.1:8080/a/b/c/'];

/**
 * What "safe" means for the value we send: a path that starts with one slash, printable ASCII only (no tab or
 * newline that a browser strips, no backslash it reads as a slash), resolves to the same origin whatever page it is
 * resolved from, and that a browser leaves exactly as it is (no dot segment it would collapse into `//`).
 */
function expectSafe(input: string, answer: string): void {
  const why = `${JSON.stringify(input)} → ${JSON.stringify(answer)}`;
  expect(answer.startsWith('/'), why).toBe(true);
  expect(answer[1] === '/' || answer[1] === '\\', why).toBe(false);
  expect(/^[\x21-\x7e]*$/.test(answer), why).toBe(true);
  expect(answer.includes('\\'), why).toBe(false);
  for (const base of BASES) {
    const url = new URL(answer, base);
    expect(url.origin, `${why} from ${base}`).toBe(new URL(base).origin);
    expect(url.pathname + url.search + url.hash, `${why} from ${base}`).toBe(answer);
  }
  // The value we send passes its own check unchanged.
  expect(safeRedirect(answer), why).toBe(answer);
}

/** Pieces attackers combine: dot segments, slashes and their encodings and look-alikes, controls, schemes. */
const PIECES = [
  '/', '//', '\\', '.', '..', './', '../', '/./', '/../', '/.//', '%2e', '%2E', '%2f', '%2F', '%5c', '%5C', '%252f', '%00', '%0a',
  '\t', '\n', '\r', '\u0000', '\u000b', '\u000c', ' ', '\u00a0', '\u200b', '\u2028', '\ufeff', '\u3000',
  '\uff0f', '\uff3c', '\u2215', '\u2044', '\u29f8', '\ufe68', '\u3002', '\uff0e', '\u2024',
  'evil.example', 'evil.example:443', '@', ':', 'http:', 'https:', 'javascript:', 'data:', '?', '#', '&', '=', '%', ';',
  'en', 'dashboard', '\ud800', '\udc00', '😀',
];
const crafted = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 })), { maxLength: 12 }).map((parts) => parts.join(''));
const leadingSlash = crafted.map((s) => `/${s}`);

describe('safeRedirect', () => {
  it('keeps ordinary same-origin paths with their query and fragment', () => {
    for (const path of ['/', '/ru/proxies?x=1#top', '/cn/billing-renewals', '/en/dashboard?tab=a%20b', '/a/b.c/d']) {
      expect(safeRedirect(path)).toBe(path);
    }
  });

  it('sends known tricks to a same-origin path', () => {
    for (const input of ['/.//evil.example', '/./\\evil.example', '/..//evil.example', '/a/..//evil.example', '/%2e//evil.example',
      '/.%2e//evil.example', '//evil.example', '/\\evil.example', '/\t/evil.example', '/\n/evil.example', 'https://evil.example',
      'javascript:alert(1)', '\\\\evil.example', ' //evil.example', '/\uff0f\uff0fevil.example', '/.\t//evil.example']) {
      expectSafe(input, safeRedirect(input));
    }
    expect(safeRedirect('/.//evil.example')).not.toBe('//evil.example');
  });

  it('answers every generated string with a same-origin path the browser does not rewrite', () => {
    fc.assert(fc.property(fc.oneof(crafted, leadingSlash, fc.string(), fc.string({ unit: 'binary' }), fc.webUrl()), (input) => {
      expectSafe(input, safeRedirect(input));
    }), { numRuns: 3000, seed: 13 });
  });

  it('non-strings and over-long strings go home', () => {
    for (const input of [undefined, null, 5, {}, ['/x'], '', `/${'a'.repeat(2001)}`]) expect(safeRedirect(input)).toBe('/');
  });
});
