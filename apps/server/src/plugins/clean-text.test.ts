import { TEXT_MESSAGE } from '@cellport/shared/schemas/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { call, signedIn, type Signed } from '../../test/console-helpers.js';
import { postForm } from '../modules/auth/auth.test-helpers.js';

const NUL = 'x\u0000y';
const LONE = ['x\ud800y', 'x\udc00y', '\ud800'];
const ANY_ID = '00000000-0000-4000-8000-000000000000';

describe('NUL characters and lone surrogates are refused with a 400, never reach the database', () => {
  let t: TestApp;
  let customer: Signed;
  let operator: Signed;
  beforeAll(async () => {
    t = await buildTestApp();
    customer = await signedIn(t, 'customer');
    operator = await signedIn(t, 'admin');
  });
  afterAll(async () => { await t.close(); });

  const expectRefused = (res: { statusCode: number; body: string; json(): unknown }, what: string) => {
    expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBe(400);
    expect(res.json(), what).toMatchObject({ code: 'VALIDATION', error: TEXT_MESSAGE });
  };

  // [who, method, url, body]: the routes the attacker found, signed out and signed in, customer and operator.
  const bodies = (bad: string): Array<[Signed | null, string, string, Record<string, unknown>]> => [
    [null, 'POST', '/api/v1/signup', { name: bad, login: 'a@example.com', password: 'Passw0rd!', purpose: 'p'.repeat(30) }],
    [null, 'POST', '/api/v1/signup', { name: 'Someone', login: `${bad}@example.com`, password: 'Passw0rd!', purpose: 'p'.repeat(30) }],
    [null, 'POST', '/api/v1/check-credentials', { login: `${bad}@example.com`, password: 'x' }],
    [null, 'POST', '/api/v1/check-login', { login: `${bad}@example.com`, name: 'Someone' }],
    [null, 'POST', '/api/v1/send-reset-password-token-to-email', { login: `${bad}@example.com` }],
    [customer, 'POST', '/api/v1/coupons/check', { coupon_name: bad }],
    [customer, 'PATCH', `/api/v1/modems/${ANY_ID}`, { modem_name: bad }],
    [customer, 'POST', '/api/v1/api-keys', { name: bad }],
    [customer, 'PATCH', '/api/v1/me', { name: bad }],
    [operator, 'POST', '/api/v1/admin/hosts', { name: bad, address: '10.0.0.1' }],
    [operator, 'POST', '/api/v1/admin/coupons', { name: bad }],
  ];

  it('in JSON bodies: NUL', async () => {
    for (const [who, method, url, body] of bodies(NUL)) {
      expectRefused(await call(t, who?.cookie ?? null, method, url, body), `${method} ${url} ${JSON.stringify(body)}`);
    }
  });

  it('in JSON bodies: lone surrogates, high or low', async () => {
    for (const bad of LONE) {
      for (const [who, method, url, body] of bodies(bad)) {
        expectRefused(await call(t, who?.cookie ?? null, method, url, body), `${method} ${url} ${JSON.stringify(body)}`);
      }
    }
  });

  it('in query strings and path parameters, declared or not', async () => {
    for (const [who, url] of [
      [operator, '/api/v1/admin/customers?q=x%00y'],
      [operator, '/api/v1/admin/payments?provider=x%00y'],
      [operator, '/api/v1/admin/audit?action=x%00y'],
      [null, '/api/v1/dev/outbox?to=x%00y%40example.com'],
      [null, '/api/v1/captcha?anything=%00'],
      [customer, '/api/v1/traffic?x=%00'],
      [null, '/api/v1/unsubscribe/abc%00def'],
      [null, '/api/v1/rotate/abc%00def'],
      [customer, '/api/v1/invoices/x%00.pdf'],
    ] as Array<[Signed | null, string]>) {
      expectRefused(await call(t, who?.cookie ?? null, 'GET', url), url);
    }
  });

  it('a link from an e-mail with a NUL goes to its page with a validation error', async () => {
    const res = await call(t, null, 'GET', '/api/v1/verify-email/abc%00def');
    expect(res.statusCode).toBe(303);
    expect(String(res.headers.location)).toMatch(/error=VALIDATION/);
  });

  it('the native sign-in form goes back to the page with a validation error, not an internal one', async () => {
    // (A form cannot carry a lone surrogate: the browser encodes it as U+FFFD.)
    const res = await postForm(t, '/signin', { login: `${NUL}@example.com`, password: 'Passw0rd!' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/en/sign-in?error=VALIDATION');
  });

  it('ordinary text, emoji (surrogate pairs) included, still passes', async () => {
    const res = await call(t, customer.cookie, 'POST', '/api/v1/api-keys', { name: 'Scraper 😀 №1' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: { name: string } }).data.name).toBe('Scraper 😀 №1');
  });
});
