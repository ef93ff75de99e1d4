import type { ErrorCode } from '@cellport/shared/errors';
import { codeOfEnglishText, englishErrorText, isErrorCode } from '../../../lib/error-texts';
import type { TFunction } from '../../../lib/i18n';

/** The error code of a server answer: its own code, else the code whose English message it carries. */
export function errorCode(code: string | null | undefined, message: string): ErrorCode | null {
  if (isErrorCode(code)) return code;
  return codeOfEnglishText(message) ?? null;
}

/** A server error in the reader's language through the `errors` namespace; unknown errors keep the server's text. */
export function translateError(t: TFunction, code: string | null | undefined, message: string): string {
  const known = errorCode(code, message);
  return known ? t(`errors:${known}`, { defaultValue: englishErrorText(known) }) : message;
}
