import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { SESSION_COOKIE } from './session.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF protection for cookie-authenticated writes (docs/decisions/003-csrf-by-origin.md): a write whose
 * Fetch Metadata or Origin says it came from another site is refused, and a write that carries our session cookie
 * must prove it came from our own pages: a same-origin `Origin`, or else a same-origin `Referer`, or else
 * `Sec-Fetch-Site: same-origin`. Together with SameSite=Lax cookies this stops cross-site forms from signing anyone
 * in or out. Requests without the cookie (scripts, bearer API keys) carry no ambient authority and pass. Routes that
 * other systems call (webhooks, IPN, host ingest) opt out with `config: { crossSite: true }`.
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
    if (site === 'cross-site') fail();
    // The browser itself vouches for a same-origin request (Fetch Metadata), whatever Origin says.
    if (site === 'same-origin') return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (origin !== 'null' && isOurs(request, origin)) return;
      fail();
    }
    // No Origin. Without our session cookie nothing ambient is at stake (a script, a bearer API key, sign-up).
    if (!cookieAuthenticated(request)) return;
    // With it, the request must show where it came from: old browsers and some privacy settings drop Origin on
    // same-origin posts but keep a same-origin Referer (our Referrer-Policy is same-origin).
    const referer = request.headers.referer;
    if (referer !== undefined && isOurs(request, referer)) return;
    fail();
  }
  /** PUBLIC_URL's origin, or the same host under another scheme or port (a proxy in front, a dev server) when the Host header names it. */
  function isOurs(request: FastifyRequest, address: string): boolean {
    let url: URL;
    try { url = new URL(address); } catch { return false; }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return allowed.has(url.origin) || url.host === request.headers.host;
  }
  function fail(): never { throw new AppError('CSRF'); }
}

/** Whether the request carries our session cookie and no bearer credentials (which a cross-site page cannot send). */
function cookieAuthenticated(request: FastifyRequest): boolean {
  if (request.headers.authorization !== undefined) return false;
  return request.cookies?.[SESSION_COOKIE] !== undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig { crossSite?: boolean }
}
