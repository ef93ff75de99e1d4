import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, cookieFrom, type TestApp } from '../../../test/helpers.js';
import { createUser, PASSWORD, postForm, postJson, solveAltcha, type AltchaChallengeJson } from './auth.test-helpers.js';

describe('captcha: altcha (self-hosted proof of work)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp({ CAPTCHA_PROVIDER: 'altcha', ALTCHA_MAX_NUMBER: '2000' }); });
  afterAll(async () => { await t.close(); });

  const challenge = async () => (await t.app.inject('/api/v1/captcha/challenge')).json() as AltchaChallengeJson;
  const verifyCaptcha = (response: string, cookie?: string) =>
    postJson(t, '/api/v1/verify-re-captcha', { 'g-recaptcha-response': response }, cookie ? { cookie } : {});

  it('describes itself and issues signed, expiring challenges', async () => {
    const info = await t.app.inject('/api/v1/captcha');
    expect(info.json()).toEqual({ provider: 'altcha', siteKey: null, passed: false });
    const c = await challenge();
    expect(c).toMatchObject({ algorithm: 'SHA-256', maxnumber: 2000 });
    expect(c.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
    const expires = Number(new URLSearchParams(c.salt.split('?')[1]).get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });

  it('refuses credential checks and sign-in until the browser passes, then accepts them', async () => {
    await createUser(t, { email: 'captcha@example.com' });
    const creds = { login: 'captcha@example.com', password: PASSWORD, code: '' };
    const refused = await postJson(t, '/api/v1/check-credentials', creds);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'CAPTCHA_REQUIRED', error: 'Please complete the captcha first' });
    const refusedForm = await postForm(t, '/signin', { login: creds.login, password: PASSWORD, redirect: '/en/proxies' });
    expect(refusedForm.headers.location).toBe('/en/sign-in?error=CAPTCHA_REQUIRED&redirect=%2Fen%2Fproxies');
    expect(refusedForm.cookies.find((c) => c.name === 'cp_session')).toBeUndefined();

    const passed = await verifyCaptcha(solveAltcha(await challenge()));
    expect(passed.json()).toEqual({ success: true });
    const pass = passed.cookies.find((c) => c.name === 'cp_captcha')!;
    expect(pass).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const cookie = cookieFrom(passed, 'cp_captcha');

    expect((await t.app.inject({ url: '/api/v1/captcha', headers: { cookie } })).json().passed).toBe(true);
    const ok = await postJson(t, '/api/v1/check-credentials', creds, { cookie });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().error).toBeNull();
    const signedIn = await postForm(t, '/signin', { login: creds.login, password: PASSWORD }, { cookie });
    expect(signedIn.headers.location).toBe('/');
    expect(signedIn.cookies.find((c) => c.name === 'cp_session')).toBeDefined();
  });

  it('a solution works once: the replay is refused', async () => {
    const solution = solveAltcha(await challenge());
    expect((await verifyCaptcha(solution)).json()).toEqual({ success: true });
    const replay = await verifyCaptcha(solution);
    expect(replay.json()).toEqual({ success: false });
    expect(replay.cookies.find((c) => c.name === 'cp_captcha')).toBeUndefined();
  });

  it('refuses wrong numbers, forged signatures, expired or unsigned challenges, garbage, and forged cookies', async () => {
    const c = await challenge();
    const good = JSON.parse(Buffer.from(solveAltcha(c), 'base64').toString()) as Record<string, unknown>;
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
    expect((await verifyCaptcha(enc({ ...good, number: (good.number as number) + 1 }))).json().success).toBe(false);
    expect((await verifyCaptcha(enc({ ...good, signature: 'f'.repeat(64) }))).json().success).toBe(false);
    expect((await verifyCaptcha(enc({ ...good, algorithm: 'SHA-1' }))).json().success).toBe(false);
    // A self-made challenge without our expiry (and so without our signature) is worthless.
    const salt = 'abc&';
    const self = { algorithm: 'SHA-256', challenge: createHash('sha256').update(`${salt}1`).digest('hex'), number: 1, salt, signature: '0'.repeat(64) };
    expect((await verifyCaptcha(enc(self))).json().success).toBe(false);
    for (const junk of ['x', 'bm90IGpzb24=', enc(null), enc([1]), enc({ number: 'x' })]) {
      expect((await verifyCaptcha(junk)).json().success).toBe(false);
    }
    // An expired challenge: rebuild one with the library and a past expiry, solved correctly.
    const { createChallenge } = await import('altcha-lib/v1');
    const old = await createChallenge({ hmacKey: t.config.secret, maxnumber: 1000, number: 5, expires: new Date(Date.now() - 1000) });
    expect((await verifyCaptcha(solveAltcha({ ...old, maxnumber: 1000 }))).json().success).toBe(false);
    // The good solution still works after all that.
    expect((await verifyCaptcha(enc(good))).json().success).toBe(true);

    for (const cookie of ['cp_captcha=9999999999999', `cp_captcha=${Date.now() + 60_000}.forged`, 'cp_captcha=']) {
      const res = await postJson(t, '/api/v1/check-credentials', { login: 'x@example.com', password: 'x' }, { cookie });
      expect(res.statusCode, cookie).toBe(403);
    }
  });

  it('the altcha challenge endpoint does not exist for other providers', async () => {
    const off = await buildTestApp({ CAPTCHA_PROVIDER: 'off' });
    try {
      expect((await off.app.inject('/api/v1/captcha')).json()).toEqual({ provider: 'off', siteKey: null, passed: true });
      expect((await off.app.inject('/api/v1/captcha/challenge')).statusCode).toBe(404);
    } finally { await off.close(); }
  });
});

describe('captcha: reCAPTCHA against a fake siteverify server', () => {
  let server: Server;
  let t: TestApp;
  const calls: Array<Record<string, string>> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        calls.push({ ...form, method: req.method ?? '', contentType: req.headers['content-type'] ?? '' });
        const success = form.secret === 'test-recaptcha-secret' && form.response === 'good-token';
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(success ? { success: true, hostname: 'localhost' } : { success: false, 'error-codes': ['invalid-input-response'] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    t = await buildTestApp({
      CAPTCHA_PROVIDER: 'recaptcha', RECAPTCHA_SITE_KEY: 'site-key-123', RECAPTCHA_SECRET_KEY: 'test-recaptcha-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('passes on a token the verifier accepts, with our secret in a form POST', async () => {
    expect((await t.app.inject('/api/v1/captcha')).json()).toEqual({ provider: 'recaptcha', siteKey: 'site-key-123', passed: false });
    const res = await postJson(t, '/api/v1/verify-re-captcha', { 'g-recaptcha-response': 'good-token' });
    expect(res.json()).toEqual({ success: true });
    expect(calls.at(-1)).toMatchObject({ method: 'POST', secret: 'test-recaptcha-secret', response: 'good-token', contentType: 'application/x-www-form-urlencoded' });
    const cookie = cookieFrom(res, 'cp_captcha');
    const check = await postJson(t, '/api/v1/check-credentials', { login: 'ghost@example.com', password: 'x' }, { cookie });
    expect(check.statusCode).toBe(404); // past the captcha gate
  });

  it('fails on a token the verifier refuses, and sets no cookie', async () => {
    const res = await postJson(t, '/api/v1/verify-re-captcha', { 'g-recaptcha-response': 'bad-token' });
    expect(res.json()).toEqual({ success: false });
    expect(res.cookies.find((c) => c.name === 'cp_captcha')).toBeUndefined();
    expect(calls.at(-1)).toMatchObject({ response: 'bad-token' });
    expect((await postJson(t, '/api/v1/check-credentials', { login: 'ghost@example.com', password: 'x' })).statusCode).toBe(403);
  });

  it('an unreachable verifier means not passed (never passed by default)', async () => {
    const down = await buildTestApp({
      CAPTCHA_PROVIDER: 'recaptcha', RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_SECRET_KEY: 'test-recaptcha-secret',
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:1/siteverify',
    });
    try {
      const res = await postJson(down, '/api/v1/verify-re-captcha', { 'g-recaptcha-response': 'good-token' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: false });
    } finally { await down.close(); }
  });
});
