import { ERRORS, type ErrorCode } from '@cellport/shared';
import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@cellport/shared/constants';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/app-error.js';

/** Per-IP limit shared by every account endpoint (@fastify/rate-limit is registered with global:false). */
export const authRateLimit = (config: Config) => ({
  rateLimit: { max: config.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: '1 minute' },
});
/**
 * Body limits of the public account routes (issue 26): their fields are short, so a body near the app's 1 MiB
 * limit is an attack on the validators, never a person. Sign-up carries two 2,000-character texts, which a
 * url-encoded form writes with up to 9 bytes a character (CJK), hence its larger limit.
 */
export const AUTH_BODY_LIMIT = 16 * 1024;
export const SIGN_UP_BODY_LIMIT = 64 * 1024;

/** The same limit for native form routes, counted once the body is parsed so the 429 page keeps the form's language. */
export const formRateLimit = (config: Config) => ({
  rateLimit: { ...authRateLimit(config).rateLimit, hook: 'preValidation' as const },
});

/** The language a form or link named, or the fallback. */
export const languageOf = (value: unknown): Language => (isLanguage(value) ? value : FALLBACK_LANGUAGE);

/** A native form's fields as strings; anything that is not a flat object of strings counts as empty. */
export function formFields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') out[key] = value;
    else if (typeof value === 'boolean' || typeof value === 'number') out[key] = String(value);
  }
  return out;
}

/** The error code to show for any failure of a native form route. */
export function errorCodeOf(err: unknown): ErrorCode {
  if (err instanceof AppError) return err.code;
  const status = (err as FastifyError | undefined)?.statusCode;
  if (status === 429) return 'RATE_LIMITED';
  if (typeof status === 'number' && status < 500) return 'VALIDATION';
  return 'INTERNAL';
}

/**
 * Route-level error handler for native form routes: a person who submitted a form gets redirected back to the
 * page with `?error=CODE` instead of a JSON body. A cross-site request still gets a plain 403 (nothing to show).
 */
export function formErrorHandler(target: (request: FastifyRequest, code: ErrorCode) => string) {
  return (err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const code = errorCodeOf(err);
    if (code === 'CSRF') return reply.status(403).send({ error: ERRORS.CSRF, code });
    if (code === 'INTERNAL') request.log.error({ err }, 'form request failed');
    return reply.redirect(target(request, code), 303);
  };
}

