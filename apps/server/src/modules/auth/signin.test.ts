import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, cookieFrom, type TestApp } from '../../../test/helpers.js';
import { generateTotp, newTotpSecret } from '../../lib/totp.js';
import { createUser, PASSWORD, postForm, postJson, sessionUser } from './auth.test-helpers.js';

const sessionCount = async (t: TestApp, userId: string) =>
  (await t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;

describe('check-credentials, sign-in and sign-out', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  it('answers every state of spec §8 with its message and flags', async () => {
    await createUser(t, { email: 'ok@example.com' });
    await createUser(t, { email: 'off@example.com', active: false });
    await createUser(t, { email: 'unverified@example.com', verified: false });
    const check = (login: string, password = PASSWORD, code = '') => postJson(t, '/api/v1/check-credentials', { login, password, code });

    const unknown = await check('ghost@example.com');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Account not found!', code: 'ACCOUNT_NOT_FOUND', isActive: false, isVerified: false, use2fa: false });

    const wrong = await check('ok@example.com', 'Wr0ngPass!');
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toEqual({ error: 'Wrong login or password', code: 'WRONG_PASSWORD', isActive: true, isVerified: true, use2fa: false });

    expect((await check('off@example.com')).json()).toEqual(
      { error: 'Your account deactivated by admin!', code: 'ACCOUNT_DEACTIVATED', isActive: false, isVerified: true, use2fa: false });
    expect((await check('unverified@example.com')).json()).toEqual(
      { error: 'Email not verified', code: 'EMAIL_NOT_VERIFIED', isActive: true, isVerified: false, use2fa: false });
    expect((await check(' OK@example.com ')).json()).toEqual({ error: null, code: null, isActive: true, isVerified: true, use2fa: false });
  });

  it('the form signs in with a new session id each time and redirects only to same-origin paths', async () => {
    const userId = await createUser(t, { email: 'form@example.com' });
    const first = await postForm(t, '/signin', { login: 'form@example.com', password: PASSWORD, redirect: '/ru/proxies?x=1#top', language: 'ru' });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/ru/proxies?x=1#top');
    const cookie = first.cookies.find((c) => c.name === 'cp_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect((await sessionUser(t, cookieFrom(first)))?.userId).toBe(userId);

    // Signing in again from the same browser: a new id, and the old session is gone.
    const second = await postForm(t, '/signin', { login: 'form@example.com', password: PASSWORD }, { cookie: cookieFrom(first) });
    expect(cookieFrom(second)).not.toBe(cookieFrom(first));
    expect(await sessionCount(t, userId)).toBe(1);

    for (const redirect of ['//evil.com', 'https://evil.com', '/\\evil.com', 'javascript:alert(1)', '\\\\evil.com', '/%2F%2Fevil.com', ' //evil.com', '/.//evil.com', '/a/..//evil.com', '/%2e//evil.com']) {
      const res = await postForm(t, '/signin', { login: 'form@example.com', password: PASSWORD, redirect });
      expect(res.statusCode, redirect).toBe(303);
      const location = String(res.headers.location);
      expect(location.startsWith('/') && !location.startsWith('//') && !location.startsWith('/\\'), `${redirect} → ${location}`).toBe(true);
      expect(new URL(location, 'http://localhost:3000').host).toBe('localhost:3000');
    }
    const none = await postForm(t, '/signin', { login: 'form@example.com', password: PASSWORD });
    expect(none.headers.location).toBe('/');
  });

  it('a failed form sign-in goes back to sign-in with the code, keeps the redirect and creates no session', async () => {
    const userId = await createUser(t, { email: 'fail@example.com' });
    const offId = await createUser(t, { email: 'deactivated@example.com', active: false });
    const wrong = await postForm(t, '/signin', { login: 'fail@example.com', password: 'Wr0ngPass!', redirect: '/cn/billing-renewals', language: 'cn' });
    expect(wrong.statusCode).toBe(303);
    expect(wrong.headers.location).toBe('/cn/sign-in?error=WRONG_PASSWORD&redirect=%2Fcn%2Fbilling-renewals');
    expect(wrong.cookies.find((c) => c.name === 'cp_session')).toBeUndefined();

    const off = await postForm(t, '/signin', { login: 'deactivated@example.com', password: PASSWORD });
    expect(off.headers.location).toBe('/en/sign-in?error=ACCOUNT_DEACTIVATED');
    const ghost = await postForm(t, '/signin', { login: 'ghost@example.com', password: PASSWORD });
    expect(ghost.headers.location).toBe('/en/sign-in?error=ACCOUNT_NOT_FOUND');
    const invalid = await postForm(t, '/signin', { login: 'not-an-email', password: '' });
    expect(invalid.headers.location).toBe('/en/sign-in?error=VALIDATION');
    expect(await sessionCount(t, userId)).toBe(0);
    expect(await sessionCount(t, offId)).toBe(0);
  });

  it('two-factor: check-credentials asks for the code, verifies without using it, /signin uses it once', async () => {
    const secret = newTotpSecret();
    const userId = await createUser(t, { email: 'tfa@example.com', totpSecret: secret });
    const check = (code: string) => postJson(t, '/api/v1/check-credentials', { login: 'tfa@example.com', password: PASSWORD, code });

    expect((await check('')).json()).toEqual({ error: null, code: null, isActive: true, isVerified: true, use2fa: true });
    const code = generateTotp(secret);
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await check(wrongCode)).json()).toMatchObject({ error: 'The code is wrong or was already used', code: 'WRONG_CODE', use2fa: true });
    expect((await check(code)).json()).toEqual({ error: null, code: null, isActive: true, isVerified: true, use2fa: true });
    expect((await check(code)).json().error).toBeNull(); // checking does not use the code up

    const noCode = await postForm(t, '/signin', { login: 'tfa@example.com', password: PASSWORD });
    expect(noCode.headers.location).toBe('/en/sign-in?error=CODE_REQUIRED');
    const ok = await postForm(t, '/signin', { login: 'tfa@example.com', password: PASSWORD, code, redirect: '/en/account' });
    expect(ok.headers.location).toBe('/en/account');
    expect(await sessionCount(t, userId)).toBe(1);

    // The same code again (a replay, or someone who watched it typed): refused everywhere.
    const replay = await postForm(t, '/signin', { login: 'tfa@example.com', password: PASSWORD, code });
    expect(replay.headers.location).toBe('/en/sign-in?error=WRONG_CODE');
    expect((await check(code)).json().code).toBe('WRONG_CODE');
    expect(await sessionCount(t, userId)).toBe(1);
    // An older code (previous step, still inside the drift window) is refused as well.
    const previous = generateTotp(secret, Date.now() - 30_000);
    if (previous !== code) expect((await check(previous)).json().code).toBe('WRONG_CODE');
  });

  it('two sign-ins racing with the same code: only one gets a session', async () => {
    const secret = newTotpSecret();
    const userId = await createUser(t, { email: 'race@example.com', totpSecret: secret });
    const code = generateTotp(secret);
    const results = await Promise.all([1, 2, 3].map(() => postForm(t, '/signin', { login: 'race@example.com', password: PASSWORD, code })));
    expect(results.filter((r) => r.headers.location === '/').length).toBe(1);
    expect(await sessionCount(t, userId)).toBe(1);
  });

  it('cross-site form posts cannot sign anyone in or out', async () => {
    const userId = await createUser(t, { email: 'csrf@example.com' });
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }] as Array<Record<string, string>>) {
      const res = await postForm(t, '/signin', { login: 'csrf@example.com', password: PASSWORD }, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF');
      expect(res.cookies.find((c) => c.name === 'cp_session')).toBeUndefined();
    }
    expect(await sessionCount(t, userId)).toBe(0);

    const signedIn = await postForm(t, '/signin', { login: 'csrf@example.com', password: PASSWORD });
    const cookie = cookieFrom(signedIn);
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Array<Record<string, string>>) {
      const out = await postForm(t, '/signout', {}, { ...headers, cookie });
      expect(out.statusCode).toBe(403);
      const jsonOut = await postJson(t, '/api/v1/sign-out', {}, { ...headers, cookie });
      expect(jsonOut.statusCode).toBe(403);
    }
    expect(await sessionCount(t, userId)).toBe(1);
  });

  it('sign-out by form and by JSON ends the session and clears the cookie', async () => {
    const userId = await createUser(t, { email: 'bye@example.com' });
    const a = await postForm(t, '/signin', { login: 'bye@example.com', password: PASSWORD });
    const out = await postForm(t, '/signout', { language: 'ru' }, { cookie: cookieFrom(a) });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/ru/sign-in');
    expect(out.cookies.find((c) => c.name === 'cp_session')?.value).toBe('');
    expect(await sessionUser(t, cookieFrom(a))).toBeNull();

    const b = await postForm(t, '/signin', { login: 'bye@example.com', password: PASSWORD });
    const jsonOut = await postJson(t, '/api/v1/sign-out', {}, { cookie: cookieFrom(b) });
    expect(jsonOut.json()).toEqual({ success: true });
    expect(await sessionCount(t, userId)).toBe(0);
    // Without a session it still answers (nothing to end).
    expect((await postJson(t, '/api/v1/sign-out', {})).json()).toEqual({ success: true });
    expect((await postForm(t, '/signout', {})).headers.location).toBe('/en/sign-in');
  });
});
