import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@cellport/shared';
import type { FastifyRequest } from 'fastify';

/** The language of a public catalog request: ?lng= first, then Accept-Language (zh → cn), else en. */
export function requestLanguage(request: FastifyRequest): Language {
  const lng = (request.query as { lng?: unknown } | undefined)?.lng;
  if (isLanguage(lng)) return lng;
  const header = String(request.headers['accept-language'] ?? '');
  for (const part of header.split(',')) {
    const tag = part.trim().split(';')[0]?.toLowerCase().split('-')[0] ?? '';
    const mapped = tag === 'zh' ? 'cn' : tag;
    if (isLanguage(mapped)) return mapped;
  }
  return FALLBACK_LANGUAGE;
}
