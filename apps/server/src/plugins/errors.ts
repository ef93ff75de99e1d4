import { ERRORS } from '@cellport/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import { AppError } from '../lib/app-error.js';

/** One place turns every failure into `{error, code}`; 5xx details are logged and never shown. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      // A 429 always says when to come back (see the rate limiter's answer below).
      const retry = err.status === 429 && err.details?.retryAfter === undefined ? { retryAfter: Math.max(1, Number(reply.getHeader('retry-after')) || 60) } : {};
      return reply.status(err.status).send({ error: err.message, code: err.code, ...retry, ...(err.details ?? {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? ERRORS.VALIDATION,
      }));
      return reply.status(400).send({ error: issues[0]?.message ?? ERRORS.VALIDATION, code: 'VALIDATION', issues });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, cause: err.cause }, 'response did not match its schema');
      return reply.status(500).send({ error: ERRORS.INTERNAL, code: 'INTERNAL' });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status === 429) {
      // Every 429 says when to come back, in the body as well as the header: routes whose own 429 (a rotation too
      // soon) carries retryAfter declare that shape, and the rate limiter's answer must fit it (it was a 500).
      const retryAfter = Math.max(1, Number(reply.getHeader('retry-after')) || 60);
      return reply.status(429).send({ error: ERRORS.RATE_LIMITED, code: 'RATE_LIMITED', retryAfter });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, wrong content type, body too large.
      return reply.status(status).send({ error: err.message || ERRORS.VALIDATION, code: 'VALIDATION' });
    }
    if (isDatabaseUnavailable(err)) {
      // The database is down or unreachable: a failure of the moment, said plainly, and when to try again.
      request.log.warn({ err }, 'request failed: the database is unavailable');
      return reply.status(503).header('retry-after', '5').send({ error: ERRORS.SERVICE_UNAVAILABLE, code: 'SERVICE_UNAVAILABLE' });
    }
    request.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: ERRORS.INTERNAL, code: 'INTERNAL' });
  });
}
