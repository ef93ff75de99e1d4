import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@cellport/shared';
import type { FastifyRequest } from 'fastify';

/** The customers' stored languages (the accounts domain's, handed in through the AppContext). */
export interface StoredLanguages {
  storedLanguage(userId: string): Promise<string | null>;
}

/** The language a request asks for: ?lng= first, then Accept-Language (zh → cn); null when it names none of ours. */
export function askedLanguage(request: FastifyRequest): Language | null {
  const lng = (request.query as { lng?: unknown } | undefined)?.lng;
  if (isLanguage(lng)) return lng;
  const header = String(request.headers['accept-language'] ?? '');
  for (const part of header.split(',')) {
    const tag = part.trim().split(';')[0]?.toLowerCase().split('-')[0] ?? '';
    const mapped = tag === 'zh' ? 'cn' : tag;
    if (isLanguage(mapped)) return mapped;
  }
  return null;
}

/** The language of a public catalog request: ?lng= first, then Accept-Language (zh → cn), else en. */
export function requestLanguage(request: FastifyRequest): Language {
  return askedLanguage(request) ?? FALLBACK_LANGUAGE;
}

/**
 * The language a signed-in reader reads server-made texts in (notifications, payment and invoice descriptions;
 * issue 14, item 3): what the request asks for (the web app sends its page language as Accept-Language on every
 * API call, so /ru reads Russian whatever the browser's own setting), else the customer's stored language.
 */
export async function readerLanguage(request: FastifyRequest, languages: StoredLanguages, userId: string): Promise<Language> {
  const asked = askedLanguage(request);
  if (asked) return asked;
  const stored = await languages.storedLanguage(userId);
  return isLanguage(stored) ? stored : FALLBACK_LANGUAGE;
}
