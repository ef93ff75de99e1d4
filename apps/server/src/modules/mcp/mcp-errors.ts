import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ERRORS, FALLBACK_LANGUAGE, LANGUAGES, type ErrorCode, type Language } from '@cellport/shared';
import { isDatabaseUnavailable } from '../../db/connection-errors.js';
import { AppError } from '../../lib/app-error.js';

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
/** The `errors` namespace the web app translates error codes with, read once at start. */
const TEXTS = Object.fromEntries(LANGUAGES.map((lng) => [
  lng, JSON.parse(readFileSync(join(localesDir, lng, 'errors.json'), 'utf8')) as Record<string, string>,
])) as Record<Language, Record<string, string>>;

/** An error code's message in `lng`, with the error's fields (e.g. `available`, `retryAfter`) filled in. */
export function errorMessage(lng: Language, code: ErrorCode, fields: Record<string, unknown> = {}): string {
  const template = TEXTS[lng][code] ?? TEXTS[FALLBACK_LANGUAGE][code] ?? ERRORS[code];
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(fields[name] ?? ''));
}

export interface ToolFailure { code: ErrorCode; message: string; status: number; fields: Record<string, unknown> }

/**
 * What a tool call that failed tells the agent: the same code and message the REST route answers, in the key
 * owner's language (a validation message that names the field stays as the service wrote it, after the translated
 * "invalid request"). Anything else is a 5xx: reported, never shown.
 */
export function toolFailure(err: unknown, lng: Language): ToolFailure {
  if (err instanceof AppError) {
    const fields = err.details ?? {};
    const generic = errorMessage(lng, err.code, fields);
    const message = err.code === 'VALIDATION' && err.message !== ERRORS.VALIDATION ? `${generic}: ${err.message}` : generic;
    return { code: err.code, message, status: err.status, fields };
  }
  if (isDatabaseUnavailable(err)) return { code: 'SERVICE_UNAVAILABLE', message: errorMessage(lng, 'SERVICE_UNAVAILABLE'), status: 503, fields: {} };
  return { code: 'INTERNAL', message: errorMessage(lng, 'INTERNAL'), status: 500, fields: {} };
}
