import { hash, verify } from '@node-rs/argon2';
import type { FastifyRequest } from 'fastify';
import { Secret, TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { outbox } from '../auth/auth.test-helpers.js';

const PASSWORD = 'Start#2026';

describe('account settings', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  let n = 0;
  /** A verified customer created directly in the database. */
  async function createUser(password = PASSWORD) {
    n += 1;
    const email = `user${n}-${Date.now()}@example.com`;
    const row = await t.ctx.db.insertInto('users')
      .values({ email, name: `User ${n}`, password_hash: await hash(password), is_verified: true })
      .returning('id').executeTakeFirstOrThrow();
    return { id: row.id, email };
  }
  /** A session for the user, as a Cookie header value. */
  async function signIn(userId: string, userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36') {
    const request = { ip: '203.0.113.7', headers: { 'user-agent': userAgent } } as unknown as FastifyRequest;
    return `cp_session=${await t.ctx.sessions.create(userId, request)}`;
  }
  const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, cookie?: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: cookie ? { cookie, origin: 'http://localhost:3000' } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('answers 401 on every endpoint without a session', async () => {
    const calls = [
      get('/api/v1/me'),
      send('PATCH', '/api/v1/me', undefined, { name: 'Someone' }),
      send('POST', '/api/v1/me/password', undefined, { current: 'x', password: 'New#Pass1', repeat: 'New#Pass1' }),
      send('POST', '/api/v1/me/2fa/setup', undefined, {}),
      send('POST', '/api/v1/me/2fa/enable', undefined, { code: '123456' }),
      send('POST', '/api/v1/me/2fa/disable', undefined, { code: '123456' }),
      get('/api/v1/me/sessions'),
      send('DELETE', `/api/v1/me/sessions/${'a'.repeat(64)}`),
      send('POST', '/api/v1/me/sessions/revoke-others', undefined, {}),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('returns and updates the profile', async () => {
    const user = await createUser();
    const cookie = await signIn(user.id);
    const me = await get('/api/v1/me', cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: user.id, name: expect.stringMatching(/^User /), email: user.email, company_name: '', billing_address: '', vat_number: '', language: 'en',
      use2fa: false, recoveryCodesLeft: 0, isVerified: true, role: 'customer',
    });

    const updated = await send('PATCH', '/api/v1/me', cookie, { name: '  Ada Lovelace ', company_name: 'Engines Ltd' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Ada Lovelace', company_name: 'Engines Ltd' });
    const row = await t.ctx.db.selectFrom('users').select(['name', 'company_name']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Ada Lovelace', company_name: 'Engines Ltd' });

    const short = await send('PATCH', '/api/v1/me', cookie, { name: 'Al' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'VALIDATION', error: 'Name must be at least 3 characters long' });
  });

  it('changes the password only with the right current one and ends the other sessions', async () => {
    const user = await createUser();
    const cookie = await signIn(user.id);
    const other = await signIn(user.id, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1');

    const wrong = await send('POST', '/api/v1/me/password', cookie, { current: 'Nope#2026', password: 'Fresh#2027', repeat: 'Fresh#2027' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'WRONG_CURRENT_PASSWORD', error: 'Current password is wrong' });

    const differ = await send('POST', '/api/v1/me/password', cookie, { current: PASSWORD, password: 'Fresh#2027', repeat: 'Fresh#2028' });
    expect(differ.statusCode).toBe(400);
    expect(differ.json()).toMatchObject({ error: 'Password not equal' });

    const weak = await send('POST', '/api/v1/me/password', cookie, { current: PASSWORD, password: 'fresh 2027', repeat: 'fresh 2027' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ error: 'Password must not contain Whitespaces.' });
    expect((await get('/api/v1/me', other)).statusCode).toBe(200);

    const ok = await send('POST', '/api/v1/me/password', cookie, { current: PASSWORD, password: 'Fresh#2027', repeat: 'Fresh#2027' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    const row = await t.ctx.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(await verify(row.password_hash, 'Fresh#2027')).toBe(true);
    expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
    // The owner is told, in case it was not them (issue 27).
    const [notice] = await outbox(t, user.email);
    expect(notice).toMatchObject({ subject: 'Your Cellport password was changed' });
    expect(notice!.text).toContain('If this was not you, reset your password');
    expect((await get('/api/v1/me', other)).statusCode).toBe(401);
    expect((await get('/api/v1/me', cookie)).statusCode).toBe(200);
  });

  it('takes a Cyrillic, Greek or Chinese password: case is judged by Unicode (issue 27)', async () => {
    const user = await createUser();
    const cookie = await signIn(user.id);
    let current = PASSWORD;
    for (const password of ['Пароль12!', 'Κωδικός1!', '密码Ab12!x']) {
      const changed = await send('POST', '/api/v1/me/password', cookie, { current, password, repeat: password });
      expect(changed.statusCode, password).toBe(200);
      const row = await t.ctx.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(await verify(row.password_hash, password)).toBe(true);
      current = password;
    }
  });

  it('enables two-factor with a real code, refuses a used code, and disables with a fresh one', async () => {
    const user = await createUser();
    const cookie = await signIn(user.id);

    const notStarted = await send('POST', '/api/v1/me/2fa/enable', cookie, { code: '123456' });
    expect(notStarted.statusCode).toBe(409);
    expect(notStarted.json()).toMatchObject({ code: 'TWO_FACTOR_NOT_SETUP' });

    const setup = await send('POST', '/api/v1/me/2fa/setup', cookie, {});
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrSvg } = setup.json() as { secret: string; otpauthUrl: string; qrSvg: string };
    expect(qrSvg).toContain('<svg');
    const parsed = URI.parse(otpauthUrl) as TOTP;
    expect(parsed.issuer).toBe('Cellport');
    expect(parsed.label).toBe(user.email);
    expect(parsed.secret.base32).toBe(secret);
    const pending = await t.ctx.db.selectFrom('users').select(['totp_pending_secret', 'totp_secret'])
      .where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(pending).toEqual({ totp_pending_secret: secret, totp_secret: null });

    const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const now = Date.now();
    const code = app.generate({ timestamp: now });
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await send('POST', '/api/v1/me/2fa/enable', cookie, { code: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'WRONG_CODE' });

    const enabled = await send('POST', '/api/v1/me/2fa/enable', cookie, { code });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json()).toMatchObject({ use2fa: true });
    const active = await t.ctx.db.selectFrom('users').select(['totp_secret', 'totp_pending_secret', 'totp_last_step'])
      .where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(active.totp_secret).toBe(secret);
    expect(active.totp_pending_secret).toBeNull();
    expect(active.totp_last_step).not.toBeNull();
    expect((await outbox(t, user.email))[0]).toMatchObject({ subject: 'Two-factor authentication is on' });

    const again = await send('POST', '/api/v1/me/2fa/setup', cookie, {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'TWO_FACTOR_ALREADY_ON' });

    // The code that turned it on cannot be used again.
    const reused = await send('POST', '/api/v1/me/2fa/disable', cookie, { code });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ code: 'WRONG_CODE' });
    expect((await get('/api/v1/me', cookie)).json()).toMatchObject({ use2fa: true });

    // The next step's code is inside the accepted drift window and is newer than the used one.
    const next = app.generate({ timestamp: now + 30_000 });
    // Pasted as an app shows it, "123 456" (issue 27).
    const disabled = await send('POST', '/api/v1/me/2fa/disable', cookie, { code: `${next.slice(0, 3)} ${next.slice(3)}` });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({ use2fa: false });
    const off = await t.ctx.db.selectFrom('users').select(['totp_secret']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(off.totp_secret).toBeNull();
    expect((await outbox(t, user.email)).map((m) => m.subject))
      .toEqual(['Two-factor authentication is off', 'Two-factor authentication is on']);

    const disableOff = await send('POST', '/api/v1/me/2fa/disable', cookie, { code: next });
    expect(disableOff.statusCode).toBe(409);
  });

  it('lists own sessions with the current one marked, ends one, and ends all others', async () => {
    const user = await createUser();
    const cookie = await signIn(user.id);
    const phone = await signIn(user.id, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1');
    const tablet = await signIn(user.id, 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Safari/604.1');

    const list = await get('/api/v1/me/sessions', cookie);
    expect(list.statusCode).toBe(200);
    const sessions = list.json() as Array<{ id: string; ip: string; userAgent: string; current: boolean; createdAt: string; lastSeenAt: string }>;
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.every((s) => s.ip === '203.0.113.7' && !Number.isNaN(Date.parse(s.lastSeenAt)))).toBe(true);

    const iphone = sessions.find((s) => s.userAgent.includes('iPhone'))!;
    const ended = await send('DELETE', `/api/v1/me/sessions/${iphone.id}`, cookie);
    expect(ended.statusCode).toBe(200);
    expect((await get('/api/v1/me', phone)).statusCode).toBe(401);
    expect((await get('/api/v1/me', tablet)).statusCode).toBe(200);

    const others = await send('POST', '/api/v1/me/sessions/revoke-others', cookie, {});
    expect(others.statusCode).toBe(200);
    expect((await get('/api/v1/me', tablet)).statusCode).toBe(401);
    const left = (await get('/api/v1/me/sessions', cookie)).json() as Array<{ current: boolean }>;
    expect(left).toEqual([expect.objectContaining({ current: true })]);
  });

  it('does not let one user see or end another user\'s sessions', async () => {
    const alice = await createUser();
    const bob = await createUser();
    const aliceCookie = await signIn(alice.id);
    const bobCookie = await signIn(bob.id);
    const bobSessions = (await get('/api/v1/me/sessions', bobCookie)).json() as Array<{ id: string }>;
    const aliceSessions = (await get('/api/v1/me/sessions', aliceCookie)).json() as Array<{ id: string }>;
    expect(aliceSessions.map((s) => s.id)).not.toContain(bobSessions[0]!.id);

    const attempt = await send('DELETE', `/api/v1/me/sessions/${bobSessions[0]!.id}`, aliceCookie);
    expect(attempt.statusCode).toBe(404);
    expect(attempt.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get('/api/v1/me', bobCookie)).statusCode).toBe(200);

    await send('POST', '/api/v1/me/sessions/revoke-others', aliceCookie, {});
    expect((await get('/api/v1/me', bobCookie)).statusCode).toBe(200);
  });

  it('answers malformed bodies with 4xx, never 5xx', async () => {
    const user = await createUser();
    const cookie = await signIn(user.id);
    const bad: Array<[ 'POST' | 'PATCH' | 'DELETE', string, unknown ]> = [
      ['PATCH', '/api/v1/me', { name: 42 }],
      ['PATCH', '/api/v1/me', []],
      ['PATCH', '/api/v1/me', { name: 'x'.repeat(5000) }],
      ['POST', '/api/v1/me/password', {}],
      ['POST', '/api/v1/me/password', { current: null, password: {}, repeat: 1 }],
      ['POST', '/api/v1/me/2fa/enable', { code: 'abcdef' }],
      ['POST', '/api/v1/me/2fa/enable', { code: 123456 }],
      ['POST', '/api/v1/me/2fa/disable', {}],
      ['DELETE', '/api/v1/me/sessions/not-a-session', undefined],
      ['DELETE', `/api/v1/me/sessions/${'0'.repeat(64)}`, undefined],
    ];
    for (const [method, url, payload] of bad) {
      const response = await send(method, url, cookie, payload);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    const notJson = await t.app.inject({
      method: 'POST', url: '/api/v1/me/2fa/enable', headers: { cookie, origin: 'http://localhost:3000', 'content-type': 'application/json' }, payload: '{"code":',
    });
    expect(notJson.statusCode).toBe(400);
  });
});

describe('account settings rate limits', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '2' }); });
  afterAll(async () => { await t.close(); });

  it('stops repeated password guesses with 429', async () => {
    const row = await t.ctx.db.insertInto('users')
      .values({ email: `limit-${Date.now()}@example.com`, name: 'Limit User', password_hash: await hash(PASSWORD), is_verified: true })
      .returning('id').executeTakeFirstOrThrow();
    const request = { ip: '198.51.100.1', headers: {} } as unknown as FastifyRequest;
    const cookie = `cp_session=${await t.ctx.sessions.create(row.id, request)}`;
    const guess = () => t.app.inject({
      method: 'POST', url: '/api/v1/me/password', headers: { cookie, origin: 'http://localhost:3000' },
      payload: { current: 'Guess#2026', password: 'Fresh#2027', repeat: 'Fresh#2027' },
    });
    expect((await guess()).statusCode).toBe(400);
    expect((await guess()).statusCode).toBe(400);
    const limited = await guess();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
