import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { isCleanText, text, TEXT_MESSAGE } from './text.js';

/** The reference: no NUL, and well-formed UTF-16 (String.prototype.isWellFormed, Node 20+). */
const reference = (s: string) => !s.includes('\u0000') && (s as unknown as { isWellFormed(): boolean }).isWellFormed();

describe('text()', () => {
  it('refuses exactly the strings with a NUL or a lone surrogate', () => {
    fc.assert(fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', 'a', '😀'), fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c))) }), (s) => {
      expect(isCleanText(s), JSON.stringify(s)).toBe(reference(s));
    }), { numRuns: 5000, seed: 13 });
  });

  it('answers with its message before the field\'s own rules', () => {
    const name = text().check(z.minLength(5, 'too short'));
    const result = z.safeParse(name, '\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([TEXT_MESSAGE]);
    expect(z.safeParse(name, 'Straße 😀').success).toBe(true);
  });
});
