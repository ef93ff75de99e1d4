import { MESSAGES } from '@cellport/shared/schemas/auth-messages';
import type { TFunction } from '../../../lib/i18n';
import { ApiError } from '../../../lib/api';

type MessageKey = keyof typeof MESSAGES;
const keyByMessage = new Map<string, MessageKey>((Object.keys(MESSAGES) as MessageKey[]).map((k) => [MESSAGES[k], k]));

/**
 * The shared schemas carry the English messages of spec §5; validation.json holds them by MESSAGES key in each
 * language. Messages that are not ours (zod's own limits) become a generic line instead of English internals.
 */
export function validationText(t: TFunction, message: string): string {
  const key = keyByMessage.get(message);
  return key ? t(`validation:${key}`, { defaultValue: message }) : t('account:form.invalid');
}

/** A failed call as the reader's language says it: by error code from errors.json, else the server's message. */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'VALIDATION') return validationText(t, error.message);
    return t(`errors:${error.code}`, { defaultValue: error.message });
  }
  return t('errors:INTERNAL');
}

/** Field → first message of a failed z.safeParse, translated. */
export function fieldErrors(t: TFunction, issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    out[field] ??= validationText(t, issue.message);
  }
  return out;
}
