import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, cookieFrom, type TestApp } from '../../../test/helpers.js';
import { hashToken } from '../../lib/tokens.js';
import { createUser, linkFromOutbox, outbox, PASSWORD, postForm, postJson, sessionUser } from './auth.test-helpers.js';

const NEW_PASSWORD = 'N3w#Secret';

describe('password reset', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  const requestReset = (login: string, language = 'en') =>
    postJson(t, '/api/v1/send-reset-password-token-to-email', { login, language });
  const tokenFor = async (email: string) =>
    (await linkFromOutbox(t, email, `${t.config.publicUrl}/`)).split('/reset-password/')[1]!;

  it('e-mails a localized link, sets the new password once, and ends every session', async () => {
    const userId = await createUser(t, { email: 'reset@example.com', name: 'Ivan' });
    const session = await postForm(t, '/signin', { login: 'reset@example.com', password: PASSWORD });
    expect(await sessionUser(t, cookieFrom(session))).not.toBeNull();

    expect((await requestReset('Reset@Example.com', 'ru')).json()).toEqual({ success: true });
    const [mail] = await outbox(t, 'reset@example.com');
    expect(mail!.subject).toBe('Сброс пароля Cellport');
    expect(mail!.text).toContain('Ivan');
    expect(mail!.text).toMatch(new RegExp(`${t.config.publicUrl}/ru/reset-password/[A-Za-z0-9_-]{40,}`));
    const token = await tokenFor('reset@example.com');
    const opened = await t.app.inject({ method: 'GET', url: `/api/v1/reset-password/${token}` });
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toEqual({ success: true });

    const row = await t.ctx.db.selectFrom('user_tokens').selectAll().where('user_id', '=', userId).where('purpose', '=', 'password_reset').executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    const ttl = row.expires_at.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);

    const ok = await postJson(t, '/api/v1/change-password', { token, password: NEW_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    const user = await t.ctx.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(await verify(user.password_hash, NEW_PASSWORD)).toBe(true);
    expect(await sessionUser(t, cookieFrom(session))).toBeNull();
    // The owner is told the password changed, in case it was not them (issue 27).
    expect((await outbox(t, 'reset@example.com'))[0]).toMatchObject({ subject: 'Your Cellport password was changed' });

    const reuse = await postJson(t, '/api/v1/change-password', { token, password: 'An0ther#Pass' });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toMatchObject({ code: 'RESET_LINK_USED', error: expect.stringContaining('can no longer be used') });

    const signIn = await postJson(t, '/api/v1/check-credentials', { login: 'reset@example.com', password: NEW_PASSWORD });
    expect(signIn.json().error).toBeNull();
  });

  it('a link older than one hour is refused', async () => {
    const userId = await createUser(t, { email: 'late@example.com' });
    await requestReset('late@example.com');
    const token = await tokenFor('late@example.com');
    await t.ctx.db.updateTable('user_tokens').set({ expires_at: new Date(Date.now() - 1) }).where('user_id', '=', userId).execute();
    const res = await postJson(t, '/api/v1/change-password', { token, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('RESET_LINK_EXPIRED');
  });

  it('opening a link tells whether it still works, before any password is typed, and never uses it up (issue 27)', async () => {
    const userId = await createUser(t, { email: 'opened@example.com' });
    await requestReset('opened@example.com');
    const token = await tokenFor('opened@example.com');
    const open = (value: string) => t.app.inject({ method: 'GET', url: `/api/v1/reset-password/${value}` });

    expect((await open(token)).statusCode).toBe(200);
    expect((await open(token)).statusCode).toBe(200); // looking does not spend the link
    const unknown = await open('b'.repeat(43));
    expect(unknown.statusCode).toBe(410);
    expect(unknown.json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect((await open('short')).statusCode).toBe(400);

    await t.ctx.db.updateTable('user_tokens').set({ expires_at: new Date(Date.now() - 1) }).where('user_id', '=', userId).execute();
    const expired = await open(token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ code: 'RESET_LINK_EXPIRED', error: 'This reset link has expired. Request a new one.' });

    await t.ctx.db.updateTable('user_tokens').set({ expires_at: new Date(Date.now() + 60_000) }).where('user_id', '=', userId).execute();
    expect((await postJson(t, '/api/v1/change-password', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
    const used = await open(token);
    expect(used.statusCode).toBe(410);
    expect(used.json()).toMatchObject({ code: 'RESET_LINK_USED' });
  });

  it('a reset revokes every API key and unlinks Telegram unless the customer unticks it (issue 26)', async () => {
    /** A customer with two API keys (each used once, so it sits in the cache) and a linked Telegram chat. */
    async function customerWithAccess(email: string) {
      const userId = await createUser(t, { email });
      const cookie = cookieFrom(await postForm(t, '/signin', { login: email, password: PASSWORD }));
      const keys: string[] = [];
      for (const name of ['cron', 'scraper']) {
        const made = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: { cookie, origin: t.config.publicUrl }, payload: { name } });
        expect(made.statusCode, made.body).toBe(200);
        keys.push(made.json().key as string);
      }
      for (const key of keys) expect((await keyAnswer(key)).statusCode).toBe(200);
      await t.ctx.db.insertInto('telegram_links').values({ user_id: userId, chat_id: `chat-${userId}`, chat_name: email, kinds: JSON.stringify([]) }).execute();
      await requestReset(email);
      return { userId, keys, token: await tokenFor(email) };
    }
    const keyAnswer = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { authorization: `Bearer ${key}` } });
    const linked = async (userId: string) =>
      (await t.ctx.db.selectFrom('telegram_links').select('user_id').where('user_id', '=', userId).execute()).length;

    const careful = await customerWithAccess('careful@example.com');
    expect((await postJson(t, '/api/v1/change-password', { token: careful.token, password: NEW_PASSWORD })).statusCode).toBe(200);
    for (const key of careful.keys) expect((await keyAnswer(key)).statusCode).toBe(401);
    expect(await linked(careful.userId)).toBe(0);

    const keeps = await customerWithAccess('keeps@example.com');
    expect((await postJson(t, '/api/v1/change-password', { token: keeps.token, password: NEW_PASSWORD, revokeAccess: false })).statusCode).toBe(200);
    for (const key of keeps.keys) expect((await keyAnswer(key)).statusCode).toBe(200);
    expect(await linked(keeps.userId)).toBe(1);
  });

  it('a successful reset voids the other outstanding reset links', async () => {
    await createUser(t, { email: 'two@example.com' });
    await requestReset('two@example.com');
    const older = await tokenFor('two@example.com');
    await requestReset('two@example.com');
    const newer = await tokenFor('two@example.com');
    expect(newer).not.toBe(older);
    expect((await postJson(t, '/api/v1/change-password', { token: newer, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await postJson(t, '/api/v1/change-password', { token: older, password: NEW_PASSWORD })).json().code).toBe('RESET_LINK_USED');
  });

  it('unknown logins and unknown tokens: same answers, nothing sent, nothing changed', async () => {
    expect((await requestReset('nobody@example.com')).json()).toEqual({ success: true });
    expect(await outbox(t, 'nobody@example.com')).toHaveLength(0);
    const res = await postJson(t, '/api/v1/change-password', { token: 'a'.repeat(43), password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('TOKEN_INVALID');
    // An e-mail-confirmation token is not a reset token.
    await postJson(t, '/api/v1/signup', {
      name: 'Cross', login: 'cross@example.com', password: PASSWORD, purpose: 'Testing reset token purposes', language: 'en',
    });
    const confirmToken = (await linkFromOutbox(t, 'cross@example.com', `${t.config.publicUrl}/api/v1/verify-email/`)).split('/').pop()!;
    expect((await postJson(t, '/api/v1/change-password', { token: confirmToken, password: NEW_PASSWORD })).json().code).toBe('TOKEN_INVALID');
  });

  it('the new password must follow the rules', async () => {
    await createUser(t, { email: 'rules@example.com' });
    await requestReset('rules@example.com');
    const token = await tokenFor('rules@example.com');
    const weak = await postJson(t, '/api/v1/change-password', { token, password: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toBe('Password must have at least one Uppercase Character.');
    // The refused attempt did not use the link up.
    expect((await postJson(t, '/api/v1/change-password', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });
});
