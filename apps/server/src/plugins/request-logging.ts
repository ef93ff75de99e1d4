import type { FastifyInstance } from 'fastify';

/** A request slower than this is logged even when it succeeded. */
const SLOW_MS = 1000;

/**
 * Fastify logs two lines per request by default; with every customer polling every 3-5 s that is most of the
 * server's work. Only client and server errors and slow requests are logged.
 */
export function registerRequestLogging(app: FastifyInstance): void {
  // Callback style: the common case (a quick success) returns at once without allocating a promise.
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    if (status < 400 && ms < SLOW_MS) { done(); return; }
    // request.log already carries reqId.
    const entry = { method: request.method, url: request.url, status, ms: Math.round(ms) };
    if (status >= 500) request.log.error(entry, 'request failed');
    else if (status >= 400) request.log.info(entry, 'request refused');
    else request.log.warn(entry, 'slow request');
    done();
  });
}
