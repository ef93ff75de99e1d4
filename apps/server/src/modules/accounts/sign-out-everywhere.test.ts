import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, type Customer } from '../../../test/fixtures.js';

// Issue 26, item 9: "sign out everywhere" ends every session, this one too, and by default revokes the API keys and
// unlinks Telegram (which a password change alone left working).

let t: TestApp;
beforeAll(async () => { t = await buildTestApp(); });
afterAll(async () => { await t.close(); });

async function setUp(): Promise<{ c: Customer; other: string; key: string }> {
  const c = await createCustomer(t);
  const other = `cp_session=${await t.ctx.sessions.create(c.id, { ip: '127.0.0.2', headers: {} } as FastifyRequest)}`;
  const key = (await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(c.cookie, { name: 'script' }) })).json().key as string;
  // Used once, so the key sits in the resolver's cache: revoking must drop it there too.
  expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200);
  await t.ctx.db.insertInto('telegram_links').values({ user_id: c.id, chat_id: `chat-${c.id}`, chat_name: 'me', kinds: JSON.stringify([]) }).execute();
  return { c, other, key };
}
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } });
const withKey = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { authorization: `Bearer ${key}` } });
const linked = async (userId: string) => Boolean(await t.ctx.db.selectFrom('telegram_links').select('user_id').where('user_id', '=', userId).executeTakeFirst());

describe('sign out everywhere', () => {
  it('ends every session, this one too, revokes the API keys and unlinks Telegram', async () => {
    const { c, other, key } = await setUp();
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/me/sessions/revoke-all', ...json(c.cookie, {}) });
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/cp_session=;/);
    expect((await me(c.cookie)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    const refused = await withKey(key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('API_KEY_INVALID');
    expect(await linked(c.id)).toBe(false);
  });

  it('can keep the API keys and the Telegram link when asked', async () => {
    const { c, other, key } = await setUp();
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/me/sessions/revoke-all', ...json(c.cookie, { revokeAccess: false }) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(c.cookie)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    expect((await withKey(key)).statusCode).toBe(200);
    expect(await linked(c.id)).toBe(true);
  });
});
