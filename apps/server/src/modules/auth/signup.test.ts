import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createUser, linkFromOutbox, outbox, PASSWORD, postForm, postJson } from './auth.test-helpers.js';

const signUpBody = (login: string, extra: Record<string, unknown> = {}) => ({
  name: 'Ann Lee', company_name: 'Acme', login, password: PASSWORD,
  purpose: 'Price monitoring across several countries', website_wishlist: 'example.com', inviteLinkToken: 'inv-123',
  language: 'en', marketing: true, ...extra,
});

describe('sign-up and e-mail confirmation', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  it('check-login: free e-mail, taken e-mail, and the spec messages', async () => {
    await createUser(t, { email: 'taken@example.com' });
    const free = await postJson(t, '/api/v1/check-login', { login: 'free@example.com', name: 'Ann' });
    expect(free.statusCode).toBe(200);
    expect(free.json()).toEqual({ error: null });

    const taken = await postJson(t, '/api/v1/check-login', { login: 'Taken@Example.com ', name: 'Ann' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: 'An account with this e-mail already exists', code: 'EMAIL_TAKEN' });

    const badLogin = await postJson(t, '/api/v1/check-login', { login: 'nope', name: 'Ann' });
    expect(badLogin.statusCode).toBe(400);
    expect(badLogin.json().error).toBe('Login is not email address!');
    const badName = await postJson(t, '/api/v1/check-login', { login: 'x@example.com', name: 'An' });
    expect(badName.json().error).toBe('Name must be at least 3 characters long');
  });

  it('signup stores the account (argon2id, language, consent, invite), sends the e-mail, and the link verifies once', async () => {
    const res = await postJson(t, '/api/v1/signup', signUpBody('New.User@Example.com', { language: 'cn' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ error: null, email: 'new.user@example.com' });

    const user = await t.ctx.db.selectFrom('users').selectAll().where('email', '=', 'new.user@example.com').executeTakeFirstOrThrow();
    expect(user.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(user).toMatchObject({ language: 'cn', marketing_consent: true, invite_token: 'inv-123', is_verified: false, company_name: 'Acme' });

    const mails = await outbox(t, 'new.user@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('请确认您在 Cellport 的电子邮箱');
    expect(mails[0]!.html).toContain('/api/v1/verify-email/');

    const link = await linkFromOutbox(t, 'new.user@example.com', `${t.config.publicUrl}/api/v1/verify-email/`);
    const token = link.split('/').pop()!;
    const stored = await t.ctx.db.selectFrom('user_tokens').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(token); // only the hash is stored
    expect(stored.expires_at.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    const verify = await t.app.inject(link.replace(t.config.publicUrl, ''));
    expect(verify.statusCode).toBe(303);
    expect(verify.headers.location).toBe('/cn/email-verified/new.user%40example.com');
    const after = await t.ctx.db.selectFrom('users').select('is_verified').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after.is_verified).toBe(true);

    const again = await t.app.inject(link.replace(t.config.publicUrl, ''));
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/cn/sign-in?error=TOKEN_INVALID');
  });

  it('signup refuses a taken e-mail and invalid fields with the spec messages', async () => {
    await postJson(t, '/api/v1/signup', signUpBody('dup@example.com'));
    const dup = await postJson(t, '/api/v1/signup', signUpBody('DUP@example.com'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('EMAIL_TAKEN');

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ password: 'pass word1A!' }, 'Password must not contain Whitespaces.'],
      [{ password: 'passw0rd!' }, 'Password must have at least one Uppercase Character.'],
      [{ password: 'Passw0rd!Passw0rd!' }, 'Password must be 8-16 Characters Long.'],
      [{ purpose: 'too short' }, 'Purpose  must be at least 20 characters long'],
      [{ inviteLinkToken: 'x'.repeat(201) }, ''],
    ];
    for (const [patch, message] of cases) {
      const res = await postJson(t, '/api/v1/signup', signUpBody('valid@example.com', patch));
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      if (message) expect(res.json().error).toBe(message);
    }
    expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'valid@example.com').executeTakeFirst()).toBeUndefined();
  });

  it('the native form signs up and redirects to confirm-email, or back with the error code', async () => {
    const fields = { ...signUpBody('form@example.com', { language: 'ru' }), marketing: 'on' } as Record<string, string>;
    delete (fields as Record<string, unknown>).company_name;
    const ok = await postForm(t, '/signup', fields);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/ru/confirm-email/form%40example.com');
    const mails = await outbox(t, 'form@example.com');
    expect(mails[0]!.subject).toBe('Подтвердите e-mail для Cellport');

    const again = await postForm(t, '/signup', fields);
    expect(again.headers.location).toBe('/ru/sign-up?error=EMAIL_TAKEN');
    const bad = await postForm(t, '/signup', { ...fields, login: 'other@example.com', password: 'short' });
    expect(bad.statusCode).toBe(303);
    expect(bad.headers.location).toBe('/ru/sign-up?error=VALIDATION');
  });

  it('an unknown, malformed or expired confirmation token redirects to sign-in with TOKEN_INVALID', async () => {
    for (const token of ['x', 'a'.repeat(43), 'abc%20def%2F..']) {
      const res = await t.app.inject(`/api/v1/verify-email/${token}`);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/en/sign-in?error=TOKEN_INVALID');
    }
    // Longer than the router's parameter limit: refused before our code runs, as a client error.
    expect((await t.app.inject(`/api/v1/verify-email/${'a'.repeat(500)}`)).statusCode).toBe(414);
    await postJson(t, '/api/v1/signup', signUpBody('expired@example.com', { language: 'ru' }));
    await t.ctx.db.updateTable('user_tokens').set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', 'in', t.ctx.db.selectFrom('users').select('id').where('email', '=', 'expired@example.com')).execute();
    const link = await linkFromOutbox(t, 'expired@example.com', `${t.config.publicUrl}/api/v1/verify-email/`);
    const res = await t.app.inject(link.replace(t.config.publicUrl, ''));
    expect(res.headers.location).toBe('/ru/sign-in?error=TOKEN_INVALID');
  });

  it('resend sends a new link for an unverified login, nothing for unknown or verified ones, and the old link still works', async () => {
    await postJson(t, '/api/v1/signup', signUpBody('resend@example.com'));
    const first = await linkFromOutbox(t, 'resend@example.com', `${t.config.publicUrl}/api/v1/verify-email/`);
    const res = await postJson(t, '/api/v1/send-confirmation-email-link', { login: 'resend@example.com', language: 'ru' });
    expect(res.json()).toEqual({ success: true });
    const mails = await outbox(t, 'resend@example.com');
    expect(mails).toHaveLength(2);
    expect(mails[0]!.subject).toBe('Подтвердите e-mail для Cellport');
    expect((await t.app.inject(first.replace(t.config.publicUrl, ''))).headers.location).toBe('/en/email-verified/resend%40example.com');

    for (const login of ['nobody@example.com', 'resend@example.com']) {
      const r = await postJson(t, '/api/v1/send-confirmation-email-link', { login, language: 'en' });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ success: true });
    }
    expect(await outbox(t, 'nobody@example.com')).toHaveLength(0);
    expect(await outbox(t, 'resend@example.com')).toHaveLength(2);
  });

  it('caps confirmation e-mails per account per hour (no inbox flooding)', async () => {
    await postJson(t, '/api/v1/signup', signUpBody('flood@example.com'));
    for (let i = 0; i < 8; i++) await postJson(t, '/api/v1/send-confirmation-email-link', { login: 'flood@example.com' });
    expect(await outbox(t, 'flood@example.com')).toHaveLength(5);
  });
});

describe('dev outbox', () => {
  it('answers newest first outside production and 404 in production', async () => {
    const t = await buildTestApp();
    try {
      await t.ctx.mailer.send({ to: 'o@example.com', subject: 'first', text: 't', html: 'h' });
      await t.ctx.mailer.send({ to: 'o@example.com', subject: 'second', text: 't', html: 'h' });
      await t.ctx.mailer.send({ to: 'other@example.com', subject: 'other', text: 't', html: 'h' });
      const list = await outbox(t, 'O@example.com');
      expect(list.map((m) => m.subject)).toEqual(['second', 'first']);
      expect(list[0]).toMatchObject({ to: 'o@example.com', text: 't', html: 'h' });
      expect(Number.isNaN(Date.parse(list[0]!.createdAt))).toBe(false);
      // Production (other production settings are beside the point here): the outbox does not exist.
      t.config.isProduction = true;
      const res = await t.app.inject('/api/v1/dev/outbox?to=o@example.com');
      expect(res.statusCode).toBe(404);
    } finally { await t.close(); }
  });
});
