import { verify } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.js';
import { seedDemoUser } from './demo-user.js';

describe('demo user seed', () => {
  it('creates a verified demo customer once, prints it, and a second run changes nothing', async () => {
    const t = await buildTestApp({ DEMO_EMAIL: 'Demo@Example.com', DEMO_PASSWORD: 'Dem0#pass' });
    try {
      const lines: string[] = [];
      const ctx = { ...t.ctx, log: { ...t.ctx.log, info: (msg: string) => { lines.push(msg); } } as typeof t.ctx.log };
      await seedDemoUser(ctx);
      const first = await t.ctx.db.selectFrom('users').selectAll().where('email', '=', 'demo@example.com').executeTakeFirstOrThrow();
      expect(first).toMatchObject({ is_verified: true, is_active: true, role: 'customer' });
      expect(await verify(first.password_hash, 'Dem0#pass')).toBe(true);
      expect(lines[0]).toContain('demo@example.com / Dem0#pass');

      await seedDemoUser(ctx);
      const all = await t.ctx.db.selectFrom('users').selectAll().where('email', '=', 'demo@example.com').execute();
      expect(all).toHaveLength(1);
      expect(all[0]).toEqual(first);

      const signIn = await t.app.inject({ method: 'POST', url: '/api/v1/check-credentials', payload: { login: 'demo@example.com', password: 'Dem0#pass' } });
      expect(signIn.json().error).toBeNull();
    } finally { await t.close(); }
  });
});
