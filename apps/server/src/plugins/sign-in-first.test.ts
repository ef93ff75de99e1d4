import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { concrete, registeredRoutes } from '../../test/registered-routes.js';

/** Bodies a signed-out caller might send: none, empty, not JSON, the wrong shape, a form. */
const VARIANTS: Array<{ name: string; headers: Record<string, string>; payload?: string }> = [
  { name: 'no body', headers: {} },
  { name: 'empty JSON body', headers: { 'content-type': 'application/json' }, payload: '' },
  { name: 'invalid JSON', headers: { 'content-type': 'application/json' }, payload: '{"a":' },
  { name: 'empty object', headers: { 'content-type': 'application/json' }, payload: '{}' },
  { name: 'wrong shape', headers: { 'content-type': 'application/json' }, payload: '[1,"x",null]' },
  { name: 'form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' },
  { name: 'unknown content type', headers: { 'content-type': 'application/x-unknown' }, payload: 'zzz' },
];

describe('a signed-out caller gets 401 before anything looks at the request', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  it('on every route that wants a signed-in caller, whatever the body, parameters or query', async () => {
    const guarded: string[] = [];
    const failures: string[] = [];
    for (const route of registeredRoutes(t.app, '/')) {
      if (route.url.includes('*')) continue;
      const answers: Array<[string, number]> = [];
      for (const urlOf of [concrete, (u: string) => u.replace(/:[A-Za-z_]+/g, 'not-an-id')]) {
        for (const v of route.method === 'GET' || route.method === 'DELETE' ? VARIANTS.slice(0, 1) : VARIANTS) {
          const res = await t.app.inject({
            method: route.method as 'POST', url: `${urlOf(route.url)}?page=-1&pageSize=x`,
            headers: { origin: t.config.publicUrl, ...v.headers }, ...(v.payload === undefined ? {} : { payload: v.payload }),
          });
          answers.push([`${v.name} ${urlOf(route.url)}`, res.statusCode]);
        }
      }
      if (!answers.some(([, status]) => status === 401)) continue;
      guarded.push(`${route.method} ${route.url}`);
      for (const [what, status] of answers) if (status !== 401) failures.push(`${route.method} ${route.url} (${what}): ${status}`);
    }
    expect(failures).toEqual([]);
    // The search found the routes it is about (so it cannot pass by finding none).
    expect(guarded).toEqual(expect.arrayContaining(['POST /api/v1/api-keys', 'PATCH /api/v1/me', 'PATCH /api/v1/modems/:id', 'POST /api/v1/payment/balance/buy', 'POST /api/v1/admin/coupons']));
  });
});
