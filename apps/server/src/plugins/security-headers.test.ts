import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { securityHeadersOf } from './security-headers.js';

describe('security headers (helmet, computed once)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  const expected = {
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };

  it('sends every helmet header on JSON answers, refusals, 404s and CSRF failures alike', async () => {
    const responses = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/v1/notifications' }),
      t.app.inject({ method: 'GET', url: '/api/v1/no-such-route' }),
      t.app.inject({ method: 'POST', url: '/api/v1/sign-out', headers: { 'sec-fetch-site': 'cross-site' }, payload: {} }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([401, 404, 403]);
    for (const r of responses) {
      expect(r.headers).toMatchObject(expected);
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/ https://js.stripe.com");
      expect(csp).toContain("form-action 'self' https://www.paypal.com https://www.sandbox.paypal.com");
      expect(csp).toContain("frame-ancestors 'self'");
      // Not in production: no HSTS and no upgrade-insecure-requests (plain-HTTP development servers).
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(r.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('takes the production options as helmet would (HSTS, upgrade-insecure-requests)', async () => {
    const headers = await securityHeadersOf({
      contentSecurityPolicy: { useDefaults: true, directives: { 'upgrade-insecure-requests': [] } },
      strictTransportSecurity: true,
    });
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
    expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('refuses per-request CSP nonces, which cannot be computed once', async () => {
    await expect(securityHeadersOf({ enableCSPNonces: true })).rejects.toThrow(/nonces/);
  });
});
