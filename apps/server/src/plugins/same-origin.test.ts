import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { createCustomer, type Customer } from '../../test/fixtures.js';

const OURS = 'http://localhost:3000';
const FOREIGN = 'https://evil.example';

describe('cookie-authenticated writes must come from our own origin (CSRF)', () => {
  let t: TestApp;
  let alice: Customer;
  beforeAll(async () => {
    t = await buildTestApp();
    alice = await createCustomer(t);
  });
  afterAll(async () => { await t.close(); });

  // The three writes the attacker found, each with a valid cookie.
  const writes = (cookie: string, headers: Record<string, string>) => [
    { method: 'POST' as const, url: '/api/v1/api-keys', headers: { cookie, ...headers }, payload: { name: 'csrf' } },
    { method: 'PATCH' as const, url: '/api/v1/me', headers: { cookie, ...headers }, payload: { name: 'Renamed by a CSRF' } },
    { method: 'POST' as const, url: '/signout', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: 'language=en' },
  ];
  const keysOf = async (userId: string) =>
    (await t.ctx.db.selectFrom('api_keys').select('id').where('user_id', '=', userId).execute()).length;
  const sessionsOf = async (userId: string) =>
    (await t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;

  for (const [name, headers] of [
    ['no Origin and a foreign Referer', { referer: `${FOREIGN}/attack.html` }],
    ['no Origin and no Referer', {}],
    ['no Origin and a Referer that only looks like ours', { referer: `${OURS}.evil.example/` }],
    ['no Origin and an unparsable Referer', { referer: 'not a url' }],
    ['a foreign Origin', { origin: FOREIGN }],
    ['Origin null', { origin: 'null' }],
    ['Sec-Fetch-Site cross-site, whatever Origin says', { 'sec-fetch-site': 'cross-site', origin: OURS }],
    ['Sec-Fetch-Site same-site (a sibling subdomain) and no Origin', { 'sec-fetch-site': 'same-site', referer: 'https://shop.localhost:3000/' }],
  ] as Array<[string, Record<string, string>]>) {
    it(`refuses with ${name}`, async () => {
      for (const request of writes(alice.cookie, headers)) {
        const res = await t.app.inject(request);
        expect(res.statusCode, `${request.method} ${request.url}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'CSRF' });
      }
      expect(await keysOf(alice.id)).toBe(0);
      expect(await sessionsOf(alice.id)).toBe(1);
      const me = await t.ctx.db.selectFrom('users').select('name').where('id', '=', alice.id).executeTakeFirstOrThrow();
      expect(me.name).toBe('Test Customer');
    });
  }

  for (const [name, headers] of [
    ['a same-origin Origin', { origin: OURS }],
    ['no Origin and a same-origin Referer', { referer: `${OURS}/en/account-settings` }],
    ['no Origin and Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }],
  ] as Array<[string, Record<string, string>]>) {
    it(`accepts ${name}`, async () => {
      const bob = await createCustomer(t);
      const [key, me, signout] = writes(bob.cookie, headers);
      expect((await t.app.inject(key!)).statusCode).toBe(200);
      expect((await t.app.inject(me!)).statusCode).toBe(200);
      const out = await t.app.inject(signout!);
      expect(out.statusCode).toBe(303);
      expect(await keysOf(bob.id)).toBe(1);
      expect(await sessionsOf(bob.id)).toBe(0);
    });
  }

  it('bearer API-key calls need no Origin or Referer', async () => {
    const bob = await createCustomer(t);
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: { cookie: bob.cookie, origin: OURS }, payload: { name: 'script' } });
    const key = (created.json() as { key: string }).key;
    const res = await t.app.inject({
      method: 'PATCH', url: '/api/v1/modems/00000000-0000-4000-8000-000000000000',
      headers: { authorization: `Bearer ${key}`, referer: `${FOREIGN}/x` }, payload: { modem_name: 'from a script' },
    });
    expect(res.statusCode, res.body).toBe(404);
  });

  it('writes without our cookie (scripts, other systems) are not cookie-authenticated and pass the check', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/check-credentials', payload: { login: 'ghost@example.com', password: 'x' } });
    expect(res.statusCode).toBe(404);
    const stale = await t.app.inject({ method: 'POST', url: '/api/v1/check-credentials', headers: { cookie: 'theme=dark' }, payload: { login: 'ghost@example.com', password: 'x' } });
    expect(stale.statusCode).toBe(404);
  });

  it('reads are never refused', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie: alice.cookie, referer: `${FOREIGN}/x` } });
    expect(res.statusCode).toBe(200);
  });
});
