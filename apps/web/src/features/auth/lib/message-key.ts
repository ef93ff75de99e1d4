import { MESSAGES } from '@cellport/shared/schemas/auth-messages';
import type { TFunction } from '../../../lib/i18n';

export type MessageKey = keyof typeof MESSAGES;

// The shared schemas carry English messages (spec §5 wording, also used by the server); the browser shows them
// translated. validation.json is keyed by the MESSAGES key, so an English message is mapped back to its key.
const keyByMessage = new Map<string, MessageKey>(
  (Object.keys(MESSAGES) as MessageKey[]).map((key) => [MESSAGES[key], key]),
);

/** The MESSAGES key of an English validation message, or null when it is not one of ours. */
export function messageKey(message: string): MessageKey | null {
  return keyByMessage.get(message) ?? null;
}

/**
 * A validation message in the reader's language. Messages outside MESSAGES (zod's own, e.g. a too-long text)
 * fall back to a generic line rather than showing English internals.
 */
export function translateMessage(t: TFunction, message: string): string {
  const key = messageKey(message);
  return key ? t(`validation:${key}`, { defaultValue: message }) : t('auth:form.invalid');
}
