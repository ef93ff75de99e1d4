import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF protection for cookie-authenticated writes (docs/decisions/003-csrf-by-origin.md): a write whose
 * Fetch Metadata or Origin says it came from another site is refused. Together with SameSite=Lax cookies this
 * stops cross-site forms from signing anyone in or out. Routes that other systems call (webhooks, IPN, host
 * ingest) opt out with `config: { crossSite: true }`.
 */
export function registerSameOrigin(app: FastifyInstance, publicUrl: string): void {
  const allowed = new Set([new URL(publicUrl).origin]);
  // Callback style: every poll passes here, and the safe-method exit should not cost a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE.has(request.method) || request.routeOptions.config?.crossSite) { done(); return; }
    try { check(request); done(); } catch (err) { done(err as Error); }
  });
  function check(request: FastifyRequest): void {
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site') throw new AppError('CSRF', 403);
    // The browser itself vouches for a same-origin request (Fetch Metadata), whatever Origin says.
    if (site === 'same-origin') return;
    const origin = request.headers.origin;
    // No Origin: not a browser form or fetch (browsers send it on every POST), so no ambient-cookie risk.
    if (origin === undefined || allowed.has(origin)) return;
    if (origin === 'null') fail();
    // Same host under another scheme or port (a proxy in front, a dev server) counts as the same site
    // only when the Host header names it.
    try {
      if (new URL(origin).host === request.headers.host) return;
    } catch { /* fall through */ }
    fail();
  }
  function fail(): never { throw new AppError('CSRF', 403); }
}

declare module 'fastify' {
  interface FastifyContextConfig { crossSite?: boolean }
}
