import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createUser, PASSWORD, postForm, postJson } from './auth.test-helpers.js';

const RATE_LIMITED = { error: 'Too many attempts. Please wait a minute and try again.', code: 'RATE_LIMITED', retryAfter: expect.any(Number) };

describe('rate limits', () => {
  let t: TestApp | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });

  it('a brute force on check-credentials from one address is stopped with 429', async () => {
    t = await buildTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '5' });
    await createUser(t, { email: 'victim@example.com' });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 8; i++) {
      last = await postJson(t, '/api/v1/check-credentials', { login: 'victim@example.com', password: `Guess${i}!a` });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    expect(last!.json()).toEqual(RATE_LIMITED);
    // Even the right password is refused while limited.
    expect((await postJson(t, '/api/v1/check-credentials', { login: 'victim@example.com', password: PASSWORD })).statusCode).toBe(429);
  });

  it('every account endpoint is limited per address', async () => {
    t = await buildTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '2' });
    const endpoints: Array<() => Promise<{ statusCode: number; headers: Record<string, unknown> }>> = [
      () => postJson(t!, '/api/v1/check-login', { login: 'a@example.com', name: 'Ann' }),
      () => postJson(t!, '/api/v1/signup', {}),
      () => postForm(t!, '/signup', {}),
      () => t!.app.inject('/api/v1/verify-email/aaaaaaaaaaaaaaa'),
      () => postJson(t!, '/api/v1/send-confirmation-email-link', { login: 'a@example.com' }),
      () => postJson(t!, '/api/v1/check-credentials', { login: 'a@example.com', password: 'x' }),
      () => postForm(t!, '/signin', { login: 'a@example.com', password: 'x' }),
      () => postForm(t!, '/signout', {}),
      () => postJson(t!, '/api/v1/sign-out', {}),
      () => postJson(t!, '/api/v1/send-reset-password-token-to-email', { login: 'a@example.com' }),
      () => postJson(t!, '/api/v1/change-password', { token: 'aaaaaaaaaaaa', password: PASSWORD }),
      () => t!.app.inject('/api/v1/captcha'),
      () => postJson(t!, '/api/v1/verify-re-captcha', { 'g-recaptcha-response': 'x' }),
    ];
    for (const call of endpoints) {
      await call();
      await call();
      const third = await call();
      // JSON routes answer 429; native forms and links go back to their page with the code.
      const limited = third.statusCode === 429 || (third.statusCode === 303 && String(third.headers.location).endsWith('error=RATE_LIMITED'));
      expect(limited, String(call)).toBe(true);
    }
    const form = await postForm(t, '/signin', { login: 'a@example.com', password: 'x', language: 'ru' });
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toBe('/ru/sign-in?error=RATE_LIMITED');
  });
  // Failed attempts per login and address (no lock-out by strangers, the captcha step-up): lockout.test.ts.
});
