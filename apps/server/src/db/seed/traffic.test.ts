import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { runSeed } from '../../db/seed/index.js';
import { json } from '../../../test/fixtures.js';
import { demoHostKey, hostForKey } from '../../modules/hosts/index.js';

let t: TestApp;
beforeAll(async () => { t = await buildTestApp(); });
afterAll(async () => { await t.close(); });

it('gives demo hosts ingest keys and the demo ports 14 days of hourly traffic, idempotently', async () => {
  await runSeed(t.ctx);
  const demo = await t.ctx.db.selectFrom('users').select('id').where('email', '=', t.config.DEMO_EMAIL.toLowerCase()).executeTakeFirstOrThrow();
  const cookie = `cp_session=${await t.ctx.sessions.create(demo.id, { ip: '127.0.0.1', headers: {} } as FastifyRequest)}`;
  const us = await t.ctx.db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
  const tariff = await t.ctx.db.selectFrom('tariffs').select('id').where('country_id', '=', us.id).where('is_shared', '=', false).where('period', '=', 'day').executeTakeFirstOrThrow();
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(cookie, {
    tariff_id: tariff.id, country_id: us.id, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);

  await runSeed(t.ctx);
  const count = async () => (await t.ctx.db.selectFrom('traffic_samples').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n;
  expect(Number(await count())).toBe(14 * 24);
  await runSeed(t.ctx);
  expect(Number(await count())).toBe(14 * 24);

  const to = new Date();
  const from = new Date(to.getTime() - 14 * 86_400_000 - 3_600_000);
  const daily = (await t.app.inject({ method: 'GET', url: `/api/v1/traffic?from=${from.toISOString()}&to=${to.toISOString()}&granularity=day`, ...json(cookie) })).json();
  expect(daily.data.length).toBeGreaterThanOrEqual(14);
  expect(BigInt(daily.totals.bytesIn)).toBeGreaterThan(BigInt(daily.totals.bytesOut));

  // The printed demo key is the host's key on the host protocol.
  const host = await t.ctx.db.selectFrom('hosts').select(['id', 'name']).where('name', 'like', 'us%').executeTakeFirstOrThrow();
  expect(await hostForKey(t.ctx.db, demoHostKey(host.name, t.config.secret))).toBe(host.id);
  expect(await hostForKey(t.ctx.db, 'chk_nope')).toBeNull();
});
