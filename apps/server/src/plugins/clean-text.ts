import { TEXT_MESSAGE } from '@cellport/shared/schemas/text';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';

/**
 * NUL in the URL (issue 13): bodies are checked by the shared `text()` schema every request string uses, but query
 * strings and path parameters reach handlers whether a route declares them or not, and PostgreSQL refuses NUL in
 * text. A NUL can only arrive in a URL percent-encoded (the HTTP parser refuses a raw one), and a lone surrogate
 * cannot arrive there at all (invalid UTF-8 is left encoded), so one search of the raw URL covers every route.
 */
export function registerCleanText(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const url = request.url;
    if (url.includes('%00') || url.includes('\u0000')) { done(new AppError('VALIDATION', 400, TEXT_MESSAGE)); return; }
    done();
  });
}
