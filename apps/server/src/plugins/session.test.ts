import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';

describe('session cache by cookie token', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  async function newSession(): Promise<{ userId: string; token: string }> {
    const row = await t.ctx.db.insertInto('users')
      .values({ email: `s${Date.now()}${Math.random()}@example.com`, name: 'S', password_hash: 'x', is_verified: true })
      .returning('id').executeTakeFirstOrThrow();
    const request = { ip: '203.0.113.7', headers: {} } as unknown as FastifyRequest;
    return { userId: row.id, token: await t.ctx.sessions.create(row.id, request) };
  }
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie: `cp_session=${token}` } });

  it('finds a resolved session by its token without hashing, and not before it was resolved', async () => {
    const { userId, token } = await newSession();
    expect(t.ctx.sessions.cached(token)).toBeUndefined();
    expect((await me(token)).statusCode).toBe(200);
    expect(t.ctx.sessions.cached(token)).toMatchObject({ userId, role: 'customer' });
    expect(t.ctx.sessions.cached(`${token}x`)).toBeUndefined();
  });

  it('forgets the token when the session is revoked, and the next request is refused', async () => {
    const { token } = await newSession();
    const user = await t.ctx.sessions.resolve(token);
    expect(t.ctx.sessions.cached(token)).toBeDefined();
    await t.ctx.sessions.revoke([user!.sessionId]);
    expect(t.ctx.sessions.cached(token)).toBeUndefined();
    expect((await me(token)).statusCode).toBe(401);
  });

  it('forgets every token of a user whose sessions all end', async () => {
    const { userId, token } = await newSession();
    await t.ctx.sessions.resolve(token);
    await t.ctx.sessions.revokeAllForUser(userId);
    expect(t.ctx.sessions.cached(token)).toBeUndefined();
    expect((await me(token)).statusCode).toBe(401);
  });
});
