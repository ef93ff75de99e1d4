import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, cookieFrom, type TestApp } from '../../../test/helpers.js';
import { generateTotp, newTotpSecret } from '../../lib/totp.js';
import { captchaPass, createUser, PASSWORD } from './auth.test-helpers.js';
import { LOGIN_FAILURE_LIMIT } from './auth.service.js';

// Issue 26 item 7: ten wrong passwords in 15 minutes from anywhere refused the right one too, so anyone could lock
// any account out, operators' included. Failures now count per login and address; past the limit the captcha steps
// up (one guess per solved captcha) instead of refusing, and the right password with its code still signs in.
const ATTACKER = '198.51.100.66';
const OWNER = '203.0.113.5';

function attempt(t: TestApp, remoteAddress: string, body: { login: string; password: string; code?: string }, cookie?: string) {
  return t.app.inject({
    method: 'POST', url: '/api/v1/check-credentials', remoteAddress,
    headers: { origin: t.config.publicUrl, ...(cookie ? { cookie } : {}) }, payload: body,
  });
}
function formSignIn(t: TestApp, remoteAddress: string, fields: Record<string, string>, cookie?: string) {
  return t.app.inject({
    method: 'POST', url: '/signin', remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.config.publicUrl, ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
}
const sessionsOf = async (t: TestApp, userId: string) =>
  (await t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;

describe('no lock-out by strangers', () => {
  let t: TestApp | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });

  it('without a captcha: a stranger\'s failures make only the stranger wait; the owner and an operator sign in', async () => {
    t = await buildTestApp();
    const owner = await createUser(t, { email: 'owner@example.com' });
    const operator = await createUser(t, { email: 'operator@example.com' });
    await t.ctx.db.updateTable('users').set({ role: 'admin' }).where('id', '=', operator).execute();
    for (const login of ['owner@example.com', 'operator@example.com']) {
      for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
        expect((await attempt(t, ATTACKER, { login, password: `Guess${i}!a` })).json().code).toBe('WRONG_PASSWORD');
      }
      // The stranger's address waits, even with the right password…
      const blocked = await attempt(t, ATTACKER, { login, password: PASSWORD });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED', error: 'Too many attempts. Please wait a minute and try again.' });
      // …the owner, elsewhere, does not.
      expect((await attempt(t, OWNER, { login, password: PASSWORD })).json()).toMatchObject({ error: null, code: null });
      const form = await formSignIn(t, OWNER, { login, password: PASSWORD });
      expect(form.headers.location).toBe('/');
    }
    expect(await sessionsOf(t, owner)).toBe(1);
    expect(await sessionsOf(t, operator)).toBe(1);
    // The owner's sign-in does not wipe the stranger's record.
    expect((await attempt(t, ATTACKER, { login: 'owner@example.com', password: PASSWORD })).statusCode).toBe(429);
  });

  it('with the captcha: past the limit each guess takes a whole pass; the right password with its code signs in', async () => {
    t = await buildTestApp({ CAPTCHA_PROVIDER: 'altcha', ALTCHA_MAX_NUMBER: '1000' });
    const secret = newTotpSecret();
    const userId = await createUser(t, { email: 'tfa-owner@example.com', totpSecret: secret });
    const login = 'tfa-owner@example.com';
    // A guesser spread over many addresses (two guesses each) reaches the limit for the login as a whole.
    for (let i = 0; i < LOGIN_FAILURE_LIMIT / 2; i++) {
      const address = `198.51.100.${i + 1}`;
      const pass = await captchaPass(t, address);
      for (let j = 0; j < 2; j++) {
        expect((await attempt(t, address, { login, password: `Guess${i}${j}!a` }, pass)).json().code).toBe('WRONG_PASSWORD');
      }
    }
    // Now one guess burns a whole fresh pass, from any address.
    const pass = await captchaPass(t, ATTACKER);
    expect((await attempt(t, ATTACKER, { login, password: 'Guess!x1' }, pass)).json().code).toBe('WRONG_PASSWORD');
    const spent = await attempt(t, ATTACKER, { login, password: 'Guess!x2' }, pass);
    expect(spent.statusCode).toBe(403);
    expect(spent.json().code).toBe('CAPTCHA_REQUIRED');
    // The owner solves the captcha once and gets in with the password and the code: check, code step, form.
    const ownerPass = await captchaPass(t, OWNER);
    expect((await attempt(t, OWNER, { login, password: PASSWORD }, ownerPass)).json()).toMatchObject({ error: null, use2fa: true });
    const code = generateTotp(secret);
    expect((await attempt(t, OWNER, { login, password: PASSWORD, code }, ownerPass)).json()).toMatchObject({ error: null, code: null });
    const signedIn = await formSignIn(t, OWNER, { login, password: PASSWORD, code }, ownerPass);
    expect(signedIn.headers.location).toBe('/');
    expect(cookieFrom(signedIn)).toMatch(/^cp_session=/);
    expect(await sessionsOf(t, userId)).toBe(1);
  });
});
