// Two-factor recovery codes (issue 27, item 5): ten at set-up, shown once, stored as HMACs, each usable once at
// sign-in (in place of the app's code), regenerable with the password or an app code, and an e-mail when one is used.
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, cookieFrom, itOnPostgres, type TestApp } from '../../../test/helpers.js';
import { generateTotp, totpStep } from '../../lib/totp.js';
import { RecoveryCodesRepository } from './recovery-codes.repository.js';
import { createUser, outbox, PASSWORD, postForm, postJson, sessionUser } from './auth.test-helpers.js';

describe('two-factor recovery codes', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  let n = 0;
  const headers = (cookie: string) => ({ cookie, origin: t.config.publicUrl });
  /** A verified customer with two-factor turned on through the API; the codes the enable answer showed. */
  async function withTwoFactor() {
    n += 1;
    const email = `recovery${n}-${Date.now()}@example.com`;
    const id = await createUser(t, { email });
    const request = { ip: '203.0.113.9', headers: { 'user-agent': 'test' } } as unknown as FastifyRequest;
    const cookie = `cp_session=${await t.ctx.sessions.create(id, request)}`;
    const setup = await t.app.inject({ method: 'POST', url: '/api/v1/me/2fa/setup', headers: headers(cookie), payload: {} });
    const secret = (setup.json() as { secret: string }).secret;
    // The step before now, so the sign-in test can still use the current step's code.
    const enabled = await t.app.inject({
      method: 'POST', url: '/api/v1/me/2fa/enable', headers: headers(cookie), payload: { code: generateTotp(secret, Date.now() - 30_000) },
    });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.headers['cache-control']).toBe('no-store');
    const body = enabled.json() as { use2fa: boolean; recoveryCodesLeft: number; recoveryCodes: string[] };
    return { id, email, cookie, secret, body, codes: body.recoveryCodes };
  }
  const me = async (cookie: string) => (await t.app.inject({ url: '/api/v1/me', headers: { cookie } })).json() as { use2fa: boolean; recoveryCodesLeft: number };
  const signInForm = (login: string, code: string) => postForm(t, '/signin', { login, password: PASSWORD, code, redirect: '/en/proxies' });

  it('enabling shows ten distinct codes once; only their HMACs are stored', async () => {
    const { id, body, codes } = await withTwoFactor();
    expect(body).toMatchObject({ use2fa: true, recoveryCodesLeft: 10 });
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const rows = await t.ctx.db.selectFrom('two_factor_recovery_codes').select(['code_hash', 'used_at']).where('user_id', '=', id).execute();
    expect(rows).toHaveLength(10);
    const stored = rows.map((r) => r.code_hash).join(' ');
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
    for (const r of rows) expect(r.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs in with a recovery code in place of the app code, once, and says how many are left', async () => {
    const { id, email, cookie, codes } = await withTwoFactor();
    const [first] = codes as [string];

    // The credentials check knows the code and what will be left, but does not use it up.
    const check = await postJson(t, '/api/v1/check-credentials', { login: email, password: PASSWORD, code: first.toUpperCase() });
    expect(check.json()).toMatchObject({ error: null, use2fa: true, recoveryCodesLeft: 9 });
    expect((await me(cookie)).recoveryCodesLeft).toBe(10);

    // Typed in capitals with a space instead of the hyphen: still the same code.
    const signedIn = await signInForm(email, first.toUpperCase().replace('-', ' '));
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/en/proxies');
    expect((await sessionUser(t, cookieFrom(signedIn)))?.userId).toBe(id);
    expect((await me(cookie)).recoveryCodesLeft).toBe(9);

    const [mail] = await outbox(t, email);
    expect(mail?.subject).toBe('A recovery code was used to sign in');
    expect(mail?.text).toContain('Recovery codes left: 9.');

    // The same code a second time: refused, at the check and at the form.
    const again = await postJson(t, '/api/v1/check-credentials', { login: email, password: PASSWORD, code: first });
    expect(again.json()).toMatchObject({ code: 'WRONG_CODE' });
    const form = await signInForm(email, first);
    expect(form.headers.location).toBe('/en/sign-in?error=WRONG_CODE&redirect=%2Fen%2Fproxies');
    expect(form.cookies.find((c) => c.name === 'cp_session')).toBeUndefined();

    // Another code of the set still works; the app's code too.
    expect((await signInForm(email, codes[1]!)).headers.location).toBe('/en/proxies');
    expect((await me(cookie)).recoveryCodesLeft).toBe(8);
  });

  it("a code of another account, or a made-up one, is a wrong code", async () => {
    const a = await withTwoFactor();
    const b = await withTwoFactor();
    expect((await signInForm(a.email, b.codes[0]!)).headers.location).toContain('error=WRONG_CODE');
    expect((await signInForm(a.email, 'aaaaa-aaaaa')).headers.location).toContain('error=WRONG_CODE');
    expect((await me(a.cookie)).recoveryCodesLeft).toBe(10);
    expect((await me(b.cookie)).recoveryCodesLeft).toBe(10);
  });

  it('regenerating needs the password or a fresh app code, and the old codes stop working', async () => {
    const { email, cookie, secret, codes } = await withTwoFactor();
    const regenerate = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/me/2fa/recovery-codes', headers: headers(cookie), payload });

    expect((await regenerate({})).json()).toMatchObject({ code: 'VALIDATION' });
    expect((await regenerate({ password: 'Wrong#Pass1' })).json()).toMatchObject({ code: 'WRONG_CURRENT_PASSWORD' });
    expect((await me(cookie)).recoveryCodesLeft).toBe(10);

    const byPassword = await regenerate({ password: PASSWORD });
    expect(byPassword.statusCode).toBe(200);
    expect(byPassword.headers['cache-control']).toBe('no-store');
    const fresh = (byPassword.json() as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
    expect((await outbox(t, email))[0]?.subject).toBe('New recovery codes were made');

    expect((await signInForm(email, codes[0]!)).headers.location).toContain('error=WRONG_CODE');
    expect((await signInForm(email, fresh[0]!)).headers.location).toBe('/en/proxies');

    // With the app's code (the current step; enabling used the one before): once.
    const code = generateTotp(secret, totpStep() * 30_000);
    const byCode = await regenerate({ code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(byCode.statusCode).toBe(200);
    expect((await regenerate({ code })).json()).toMatchObject({ code: 'WRONG_CODE' });
    expect((await me(cookie)).recoveryCodesLeft).toBe(10);
    expect((await signInForm(email, fresh[1]!)).headers.location).toContain('error=WRONG_CODE');
  });

  it('a lost phone: two-factor turned off with a recovery code, and the codes go with it', async () => {
    const { id, email, cookie, codes } = await withTwoFactor();
    const off = await t.app.inject({ method: 'POST', url: '/api/v1/me/2fa/disable', headers: headers(cookie), payload: { code: codes[3] } });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ use2fa: false, recoveryCodesLeft: 0 });
    expect(await t.ctx.db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', id).execute()).toEqual([]);
    expect((await outbox(t, email))[0]?.subject).toBe('Two-factor authentication is off');
    // Without two-factor the password alone signs in again.
    expect((await postForm(t, '/signin', { login: email, password: PASSWORD })).headers.location).toBe('/');
  });

  it('e-mails the notice in the account language', async () => {
    const { id, email, codes } = await withTwoFactor();
    await t.ctx.db.updateTable('users').set({ language: 'ru' }).where('id', '=', id).execute();
    await signInForm(email, codes[0]!);
    const [mail] = await outbox(t, email);
    expect(mail?.subject).toBe('Для входа использован резервный код');
    expect(mail?.text).toContain('Осталось резервных кодов: 9.');
  });

  itOnPostgres('two sign-ins racing with the same code: exactly one gets in', async () => {
    const { email, cookie, codes } = await withTwoFactor();
    const tries = await Promise.all(Array.from({ length: 6 }, () => signInForm(email, codes[0]!)));
    const signedIn = tries.filter((r) => r.headers.location === '/en/proxies');
    expect(signedIn).toHaveLength(1);
    expect(tries.filter((r) => String(r.headers.location).includes('error=WRONG_CODE'))).toHaveLength(5);
    expect((await me(cookie)).recoveryCodesLeft).toBe(9);
  });

  itOnPostgres('the repository uses a code once under concurrent calls', async () => {
    const { id, codes } = await withTwoFactor();
    const repo = new RecoveryCodesRepository(t.ctx.db, t.config.secret);
    const results = await Promise.all(Array.from({ length: 10 }, () => repo.use(id, codes[5]!)));
    expect(results.filter((r) => r !== null)).toEqual([9]);
  });
});
