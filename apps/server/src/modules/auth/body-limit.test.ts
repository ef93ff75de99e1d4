import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { postForm, postJson } from './auth.test-helpers.js';

// Issue 26 item 3: the public account routes took bodies up to the app's 1 MiB, enough to feed the validators a
// login of a million characters. Their own small limits refuse such a body before it is parsed.
const JSON_ROUTES = [
  '/api/v1/check-credentials', '/api/v1/sign-out', '/api/v1/check-login', '/api/v1/send-confirmation-email-link',
  '/api/v1/send-reset-password-token-to-email', '/api/v1/change-password', '/api/v1/verify-re-captcha',
];
const FORM_ROUTES = ['/signin', '/signout'];
const hostileLogin = (length: number) => `a@${'.'.repeat(length)}@`;

describe('body limits of the public account routes', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  it('refuses a 20 KiB body on every sign-in, reset and captcha route with 413', async () => {
    for (const url of JSON_ROUTES) {
      const res = await postJson(t, url, { login: hostileLogin(20 * 1024), password: 'x', 'g-recaptcha-response': 'x' });
      expect(res.statusCode, url).toBe(413);
    }
    for (const url of FORM_ROUTES) {
      const res = await postForm(t, url, { login: hostileLogin(20 * 1024), password: 'x', language: 'ru' });
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location, url).toMatch(/^\/en\/sign-in\?error=VALIDATION/);
    }
  });

  it('sign-up takes its longest honest form (two 2,000-character CJK texts, url-encoded) and refuses more', async () => {
    const cjk = '漢'.repeat(2000);
    const form = { name: 'Ann', login: 'cjk@example.com', password: 'Passw0rd!', purpose: cjk, website_wishlist: cjk, language: 'cn', marketing: 'on' };
    const honest = await postForm(t, '/signup', form);
    expect(honest.statusCode).toBe(303);
    expect(honest.headers.location).toBe('/cn/confirm-email/cjk%40example.com');
    const json = await postJson(t, '/api/v1/signup', { ...form, login: 'cjk2@example.com', marketing: true });
    expect(json.statusCode).toBe(200);
    expect((await postJson(t, '/api/v1/signup', { ...form, purpose: 'p'.repeat(70 * 1024) })).statusCode).toBe(413);
  });
});
