import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  it('answers liveness without the database and readiness with it', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers JSON 404 for unknown API paths and the SPA for client routes', async () => {
    const api = await t.app.inject('/api/v1/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
    const page = await t.app.inject('/en/dashboard');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('serves translations as JSON and falls back to en for an unknown language', async () => {
    const ru = await t.app.inject('/locales/ru/common.js');
    expect(ru.statusCode).toBe(200);
    expect(ru.json()).toHaveProperty('nav');
    const xx = await t.app.inject('/locales/xx/common.js');
    expect(xx.json()).toEqual((await t.app.inject('/locales/en/common.js')).json());
  });
});
