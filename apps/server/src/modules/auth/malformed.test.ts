import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

const POST_ENDPOINTS = [
  '/api/v1/check-login', '/api/v1/signup', '/signup', '/api/v1/send-confirmation-email-link', '/api/v1/check-credentials',
  '/signin', '/signout', '/api/v1/sign-out', '/api/v1/send-reset-password-token-to-email', '/api/v1/change-password',
  '/api/v1/verify-re-captcha',
];

const huge = 'x'.repeat(200_000);
const BODIES: Array<{ name: string; contentType: string; payload: string }> = [
  { name: 'garbage JSON', contentType: 'application/json', payload: '{"login": ' },
  { name: 'JSON null', contentType: 'application/json', payload: 'null' },
  { name: 'JSON array', contentType: 'application/json', payload: '[1,2,3]' },
  { name: 'JSON string', contentType: 'application/json', payload: '"hello"' },
  { name: 'empty JSON body', contentType: 'application/json', payload: '' },
  { name: 'empty object', contentType: 'application/json', payload: '{}' },
  {
    name: 'wrong types', contentType: 'application/json',
    payload: JSON.stringify({ login: 42, name: ['a'], password: { $gt: '' }, code: true, token: 1, language: 'xx', marketing: 'yes', 'g-recaptcha-response': 5, redirect: {} }),
  },
  {
    name: 'huge strings', contentType: 'application/json',
    payload: JSON.stringify({ login: `${huge}@example.com`, name: huge, password: huge, purpose: huge, code: huge, token: huge, 'g-recaptcha-response': huge, redirect: huge }),
  },
  { name: 'prototype pollution', contentType: 'application/json', payload: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
  { name: 'form garbage', contentType: 'application/x-www-form-urlencoded', payload: 'login=%E0%A4%A&password[]=1&&=&redirect=%00' },
  { name: 'form with repeated fields', contentType: 'application/x-www-form-urlencoded', payload: 'login=a@b.co&login=c@d.co&password=x&password=y' },
  { name: 'wrong content type', contentType: 'text/plain', payload: 'login=a@b.co' },
  { name: 'xml', contentType: 'application/xml', payload: '<login>a@b.co</login>' },
  { name: 'multipart', contentType: 'multipart/form-data; boundary=x', payload: '--x\r\nContent-Disposition: form-data; name="login"\r\n\r\na\r\n--x--' },
];

describe('no endpoint answers 5xx to a malformed request', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  for (const url of POST_ENDPOINTS) {
    it(`POST ${url}`, async () => {
      for (const body of BODIES) {
        const res = await t.app.inject({
          method: 'POST', url, payload: body.payload,
          headers: { 'content-type': body.contentType, origin: t.config.publicUrl },
        });
        expect(res.statusCode, `${body.name}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        if (res.statusCode === 303) expect(String(res.headers.location)).toMatch(/^\/(en|ru|cn)\//);
        else if (res.statusCode >= 400) expect(res.json(), body.name).toHaveProperty('code');
      }
    });
  }

  it('GET endpoints with odd parameters', async () => {
    for (const url of [
      '/api/v1/verify-email/%E0%A4%A', '/api/v1/verify-email/..%2F..%2Fetc', '/api/v1/verify-email/',
      '/api/v1/dev/outbox?to[]=x', `/api/v1/dev/outbox?to=${'x'.repeat(500)}`, '/api/v1/captcha?x=%00', '/api/v1/captcha/challenge',
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });
});
