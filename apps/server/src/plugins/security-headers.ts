import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * Helmet's security headers on every response, computed once.
 *
 * @fastify/helmet builds a new helmet middleware on every request (parsing the CSP directives again) from two
 * hooks, one of them async, and allocates a `reply.helmet` closure per request: with customers polling every
 * few seconds that was the largest part of an unchanged 304 poll. Our configuration has no per-request parts
 * (no CSP nonces, no function directives, no per-route helmet options), so its header set is the same for every
 * request: it is taken once from @fastify/helmet itself, on a throwaway instance with the same options, and
 * applied with a single callback-style hook.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: FastifyHelmetOptions): Promise<void> {
  const headers = await securityHeadersOf(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers @fastify/helmet sets with these options, as it sets them (names as helmet spells them). */
export async function securityHeadersOf(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  if (options.enableCSPNonces) throw new Error('CSP nonces differ per request: they cannot be computed once');
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  let captured: Record<string, string> | undefined;
  probe.get('/', (_request, reply) => {
    // Only helmet has written to the raw response at this point; Fastify adds its own headers when it sends.
    captured = {};
    for (const [name, value] of Object.entries(reply.raw.getHeaders())) captured[name] = String(value);
    return '';
  });
  await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  if (!captured || Object.keys(captured).length === 0) throw new Error('helmet set no headers');
  return captured;
}
