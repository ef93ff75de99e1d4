// Server errors for the reader: by code through the `errors` namespace, with the error body filling placeholders.
import { ApiError } from './api';
import type { TFunction } from './i18n';

/**
 * A failed call in the reader's language: translated by its code through the `errors` namespace, with the fields of
 * the error body (e.g. `available`, `retryAfter`) filled into the message; unknown codes keep the server's text.
 */
export function errorText(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiError)) return t('errors:INTERNAL', { defaultValue: String((error as Error)?.message ?? error) });
  const fields = typeof error.body === 'object' && error.body !== null ? (error.body as Record<string, unknown>) : {};
  return t(`errors:${error.code}`, { ...fields, defaultValue: error.message });
}
