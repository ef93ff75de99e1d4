import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';

let t: TestApp;
let alice: Customer;
let bob: Customer;
let portId: string;

beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', MODEM_SIM_SAME_IP_RATE: '0' });
  const cat = await seedTestCatalog(t);
  alice = await createCustomer(t, 1000);
  bob = await createCustomer(t);
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(alice.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  portId = bought.json().data.modems[0]._id;
});
afterAll(async () => { await t.close(); });

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
async function createKey(c: Customer, name = 'script'): Promise<{ _id: string; key: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(c.cookie, { name }) });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  return { _id: body.data._id, key: body.key };
}

describe('API keys', () => {
  it('creates a key shown once, lists it by name and prefix, stores only its hash', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(alice.cookie, { name: '  cron job  ' }) });
    const body = res.json();
    expect(body.key).toMatch(/^cpk_[A-Za-z0-9_-]{32}$/);
    expect(body.data).toMatchObject({ name: 'cron job', prefix: body.key.slice(0, 8) });
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/api-keys', ...json(alice.cookie) })).json();
    expect(list.data).toEqual([{ _id: body.data._id, name: 'cron job', prefix: body.key.slice(0, 8), createdAt: body.data.createdAt, lastUsedAt: null,
      scope: 'full', monthlySpendLimit: null, spentThisMonth: '0' }]);
    const row = await t.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', body.data._id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(body.key);
  });

  it('works as bearer for the customer API (list, patch, rotate, rotation link) and not for any other route', async () => {
    const { key } = await createKey(alice);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: bearer(key) });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((p: { _id: string }) => p._id)).toEqual([portId]);
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${portId}`, headers: bearer(key), payload: { modem_name: 'via api' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().modem_name).toBe('via api');
    const link = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${portId}/rotation-link`, headers: bearer(key) });
    expect(link.statusCode).toBe(200);
    const rotated = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${portId}/rotate`, headers: bearer(key) });
    expect(rotated.statusCode, rotated.body).toBe(200);

    for (const [method, url] of [['GET', '/api/v1/notifications'], ['GET', '/api/v1/api-keys'],
      ['POST', '/api/v1/api-keys'], ['GET', '/api/v1/token'], ['GET', '/api/v1/dashboard'], ['GET', '/api/v1/traffic?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z']] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(key), ...(method === 'POST' ? { payload: { name: 'x' } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    // Another customer's port is not found through one's own key.
    const { key: bobKey } = await createKey(bob);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/modems/${portId}/rotation-link`, headers: bearer(bobKey) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: bearer(bobKey) })).json()).toEqual([]);
  });

  it('a revoked key stops working at once (even cached); only its owner can revoke it', async () => {
    const { _id, key } = await createKey(alice, 'to revoke');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: bearer(key) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${_id}`, ...json(bob.cookie) })).statusCode).toBe(404);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${_id}`, ...json(alice.cookie) });
    expect(revoked.json()).toEqual({ success: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: bearer(key) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${_id}`, ...json(alice.cookie) })).statusCode).toBe(404);
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/api-keys', ...json(alice.cookie) })).json();
    expect(list.data.map((k: { _id: string }) => k._id)).not.toContain(_id);
  });

  it('a deactivated account\'s keys stop working', async () => {
    const carol = await createCustomer(t);
    const { key } = await createKey(carol);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: bearer(key) })).statusCode).toBe(200);
    await t.ctx.db.updateTable('users').set({ is_active: false }).where('id', '=', carol.id).execute();
    await t.ctx.sessions.revokeAllForUser(carol.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: bearer(key) })).statusCode).toBe(401);
  });

  it('refuses malformed input with 4xx, forged keys with 401, and more than 20 keys with 409', async () => {
    for (const payload of [{}, { name: '' }, { name: 'x'.repeat(61) }, { name: 5 }, 'not json']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(bob.cookie, payload), headers: { cookie: bob.cookie, 'content-type': 'application/json' } });
      expect(res.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect((await t.app.inject({ method: 'DELETE', url: '/api/v1/api-keys/nope', ...json(bob.cookie) })).statusCode).toBe(400);
    for (const key of ['cpk_forged', 'not-a-key', `cpk_${'a'.repeat(500)}`, '']) {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: bearer(key) })).statusCode).toBe(401);
    }
    const dave = await createCustomer(t);
    for (let i = 0; i < 20; i++) await createKey(dave, `k${i}`);
    const over = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(dave.cookie, { name: 'one more' }) });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('API_KEYS_LIMIT');
  });
});

describe('OpenAPI document', () => {
  it('is generated from the route schemas, with tags and the bearer scheme on the customer API only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const modems = doc.paths['/api/v1/modems'].get;
    expect(modems.tags).toEqual(['modems']);
    expect(modems.security).toEqual([{ cookieAuth: [] }, { bearerAuth: [] }]);
    expect(modems.responses['200'].content['application/json'].schema.items.properties.IMEI).toBeTruthy();
    const patch = doc.paths['/api/v1/modems/{id}'].patch;
    expect(patch.requestBody.content['application/json'].schema.properties.modem_name).toBeTruthy();
    expect(doc.paths['/api/v1/notifications'].get.tags).toEqual(['notifications']);
    expect(doc.paths['/api/v1/notifications'].get.security).toBeUndefined();
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/v1/admin'))).toBe(false);
  });
});
