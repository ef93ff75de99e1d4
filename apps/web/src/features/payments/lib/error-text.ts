import type { TFunction } from '../../../lib/i18n';
import { ApiError } from '../../../lib/api';

/**
 * The text of a failed payment call for an error toast (spec §8): an API error in the reader's language by its
 * code (the server's message for a code we do not know); a thrown exception shows its own message.
 */
export function paymentErrorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    const fields = typeof error.body === 'object' && error.body !== null ? (error.body as Record<string, unknown>) : {};
    return t(`errors:${error.code}`, { ...fields, defaultValue: error.message });
  }
  if (error instanceof Error && error.message) return error.message;
  return t('errors:INTERNAL');
}
