import * as z from 'zod/mini';

/**
 * The one string type of every request field (issue 13): a NUL character (PostgreSQL refuses it in text, so it
 * used to surface as a 500) or a lone UTF-16 surrogate (not text at all; it cannot be stored or encoded faithfully)
 * is refused with a 400 and this message, before any other rule of the field runs.
 */
export const TEXT_MESSAGE = 'Text must not contain NUL characters or broken Unicode (lone surrogates)';

const FORBIDDEN = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` holds no NUL and no unpaired surrogate. */
export function isCleanText(value: string): boolean {
  return !FORBIDDEN.test(value);
}

/** A string that is clean text; add the field's own rules with `.check(...)`. */
export const text = () => z.string().check(z.refine(isCleanText, { message: TEXT_MESSAGE, abort: true }));
