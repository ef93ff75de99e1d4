// The English text of each error code, for the message an ApiError carries and for placing a server's English message
// by its code. The browser reads it from the `errors` namespace's English file instead of importing shared/errors'
// ERRORS: that file IS the table (apps/server/src/lib/emails/emails.test.ts holds them equal), every page loads it
// first (initI18n), and bundling ERRORS as well put the same ~4 KB of gzip into every page's JavaScript, sign-in
// included (issue 31, item 4). The errors any endpoint can answer (COMMON_ERRORS) stay bundled, so a page whose
// translations failed to load still has a text for the codes the API client makes up itself.
import { FALLBACK_LANGUAGE } from '@cellport/shared/constants';
import { COMMON_ERRORS } from '@cellport/shared/errors/common';
import type { ErrorCode } from '@cellport/shared/errors';
import { i18n } from './i18n';

const texts = (): Readonly<Record<string, unknown>> => ({ ...COMMON_ERRORS, ...i18n.loaded(FALLBACK_LANGUAGE, 'errors') });

/** The English text of an error code the app knows, else undefined. */
export function englishErrorText(code: unknown): string | undefined {
  if (typeof code !== 'string') return undefined;
  const all = texts();
  const text = Object.hasOwn(all, code) ? all[code] : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** Whether the app knows this error code (the server answers with no other). */
export const isErrorCode = (code: unknown): code is ErrorCode => englishErrorText(code) !== undefined;

/** The code whose English text is exactly `message` (the last one, should two share a text), else undefined. */
export function codeOfEnglishText(message: string): ErrorCode | undefined {
  let found: string | undefined;
  for (const [code, text] of Object.entries(texts())) if (text === message) found = code;
  return found as ErrorCode | undefined;
}
