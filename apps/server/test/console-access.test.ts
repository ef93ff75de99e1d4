import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';
import { concrete, registeredRoutes } from './registered-routes.js';
import { call, signedIn, type Signed } from './console-helpers.js';

describe('every admin endpoint', () => {
  let t: TestApp;
  let admin: Signed;
  let customer: Signed;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedIn(t);
    customer = await signedIn(t, 'customer');
  });
  afterAll(async () => { await t.close(); });

  it('is found in the route tree (the console API is all there)', () => {
    const routes = registeredRoutes(t.app, '/api/v1/admin').map((r) => `${r.method} ${r.url}`);
    expect(routes.length).toBeGreaterThanOrEqual(50);
    for (const r of ['GET /api/v1/admin/customers', 'POST /api/v1/admin/modems/import', 'POST /api/v1/admin/payments/:id/refund',
      'DELETE /api/v1/admin/admins/:id', 'GET /api/v1/admin/audit', 'PATCH /api/v1/admin/settings', 'GET /api/v1/admin/overview',
      'POST /api/v1/admin/hosts/:id/key', 'POST /api/v1/admin/ports/:id/suspend', 'POST /api/v1/admin/ports/:id/resume']) {
      expect(routes).toContain(r);
    }
  });

  it('answers 401 to a visitor and 403 to a customer, whatever the body, and changes nothing', async () => {
    const routes = registeredRoutes(t.app, '/api/v1/admin');
    const auditBefore = await t.ctx.db.selectFrom('audit_log').select('id').execute();
    for (const r of routes) {
      for (const body of r.method === 'GET' || r.method === 'DELETE' ? [undefined] : [undefined, {}, { garbage: true }]) {
        const visitor = await call(t, null, r.method, concrete(r.url), body);
        expect({ route: `${r.method} ${r.url}`, status: visitor.statusCode, code: visitor.json().code })
          .toEqual({ route: `${r.method} ${r.url}`, status: 401, code: 'UNAUTHORIZED' });
        const asCustomer = await call(t, customer.cookie, r.method, concrete(r.url), body);
        expect({ route: `${r.method} ${r.url}`, status: asCustomer.statusCode, code: asCustomer.json().code })
          .toEqual({ route: `${r.method} ${r.url}`, status: 403, code: 'FORBIDDEN' });
      }
    }
    expect(await t.ctx.db.selectFrom('audit_log').select('id').execute()).toEqual(auditBefore);
  });

  it('answers malformed requests with 4xx, never 5xx', async () => {
    const routes = registeredRoutes(t.app, '/api/v1/admin');
    const bodies: unknown[] = [undefined, {}, [], 'not json', { amount: 'NaN', reason: 5 }, { id: null, names: 'x', to: 42 },
      { email: 'x'.repeat(5000) }, { coin: 'usdt', amount: '-99999999999999999999999', reason: 'overflow' }];
    for (const r of routes) {
      const urls = [concrete(r.url), r.url.replace(/:[A-Za-z_]+/g, 'not-an-id'), `${concrete(r.url)}?page=-1&pageSize=99999&from=yesterday&days=0`];
      for (const url of urls) {
        for (const body of r.method === 'GET' ? [undefined] : bodies) {
          const headers: Record<string, string> = typeof body === 'string' ? { 'content-type': 'application/json' } : {};
          const res = await call(t, admin.cookie, r.method, url, body, headers);
          expect({ route: `${r.method} ${url}`, body, status: res.statusCode < 500 }).toEqual({ route: `${r.method} ${url}`, body, status: true });
        }
      }
    }
  });
});
