import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { captchaPass, createUser, PASSWORD } from './auth.test-helpers.js';
import { CAPTCHA_PASS_USES } from './captcha-gate.js';

// Issue 26 item 8: one solved captcha was a 30-minute bearer pass for any client, and sign-up had no captcha at all.
const SIGN_UP = { name: 'Ann', password: 'Passw0rd!', purpose: 'Price monitoring for my own shop', marketing: true };

describe('captcha passes: bound to their address, a few uses each; sign-up needs one', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp({ CAPTCHA_PROVIDER: 'altcha', ALTCHA_MAX_NUMBER: '1000' }); });
  afterAll(async () => { await t.close(); });

  const check = (remoteAddress: string, cookie: string, password: string) => t.app.inject({
    method: 'POST', url: '/api/v1/check-credentials', remoteAddress,
    headers: { origin: t.config.publicUrl, cookie }, payload: { login: 'budget@example.com', password },
  });
  const signUp = (remoteAddress: string, login: string, cookie?: string) => t.app.inject({
    method: 'POST', url: '/api/v1/signup', remoteAddress,
    headers: { origin: t.config.publicUrl, ...(cookie ? { cookie } : {}) }, payload: { ...SIGN_UP, login },
  });
  const signUpForm = (remoteAddress: string, login: string, cookie?: string) => t.app.inject({
    method: 'POST', url: '/signup', remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.config.publicUrl, ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams({ ...SIGN_UP, marketing: 'on', login, language: 'ru' }).toString(),
  });

  it('a pass works only from the address that solved it', async () => {
    await createUser(t, { email: 'budget@example.com' });
    const pass = await captchaPass(t, '192.0.2.10');
    const elsewhere = await check('192.0.2.11', pass, PASSWORD);
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().code).toBe('CAPTCHA_REQUIRED');
    expect((await t.app.inject({ url: '/api/v1/captcha', remoteAddress: '192.0.2.11', headers: { cookie: pass } })).json().passed).toBe(false);
    expect((await check('192.0.2.10', pass, PASSWORD)).json().error).toBeNull();
  });

  it(`a pass pays for ${CAPTCHA_PASS_USES} guesses, and the right password costs none`, async () => {
    const pass = await captchaPass(t, '192.0.2.20');
    for (let i = 0; i < 5; i++) expect((await check('192.0.2.20', pass, PASSWORD)).json().error).toBeNull();
    for (let i = 0; i < CAPTCHA_PASS_USES; i++) expect((await check('192.0.2.20', pass, `Guess${i}!a`)).json().code).toBe('WRONG_PASSWORD');
    const spent = await check('192.0.2.20', pass, 'Guess9!a');
    expect(spent.statusCode).toBe(403);
    expect(spent.json()).toMatchObject({ code: 'CAPTCHA_REQUIRED', error: 'Please complete the captcha first' });
    expect((await t.app.inject({ url: '/api/v1/captcha', remoteAddress: '192.0.2.20', headers: { cookie: pass } })).json().passed).toBe(false);
  });

  it('sign-up, as JSON and as a form, needs a pass and spends one use per account', async () => {
    const refused = await signUp('192.0.2.30', 'nocaptcha@example.com');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('CAPTCHA_REQUIRED');
    const refusedForm = await signUpForm('192.0.2.30', 'nocaptcha@example.com');
    expect(refusedForm.headers.location).toBe('/ru/sign-up?error=CAPTCHA_REQUIRED');
    expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'nocaptcha@example.com').executeTakeFirst()).toBeUndefined();

    const pass = await captchaPass(t, '192.0.2.30');
    expect((await signUp('192.0.2.30', 'first@example.com', pass)).json()).toEqual({ error: null, email: 'first@example.com' });
    expect((await signUpForm('192.0.2.30', 'second@example.com', pass)).headers.location).toBe('/ru/confirm-email/second%40example.com');
    expect((await signUp('192.0.2.30', 'third@example.com', pass)).statusCode).toBe(200);
    expect((await signUp('192.0.2.30', 'fourth@example.com', pass)).json().code).toBe('CAPTCHA_REQUIRED');
  });
});
