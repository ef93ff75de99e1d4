import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { seedCatalog } from '../../db/seed/catalog.js';
import { CatalogRepository } from './catalog.repository.js';
import { CatalogService } from './catalog.service.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, leaveFreeDedicated, seedTestCatalog } from '../../../test/fixtures.js';

let t: TestApp;
beforeEach(async () => { t = await buildTestApp(); });
afterEach(async () => {
  await expectLedgerMatchesBalances(t.ctx.db);
  await t.close();
});

describe('catalog', () => {
  it('lists countries with names in the request language, carriers and regions; the seed is idempotent', async () => {
    await seedCatalog(t.ctx);
    await seedCatalog(t.ctx);
    const ru = await t.app.inject({ method: 'GET', url: '/api/v1/countries?lng=ru' });
    const us = ru.json().find((c: { code: string }) => c.code === 'US');
    expect(us.name).toBe('США');
    expect(us.names).toEqual({ en: 'United States', ru: 'США', cn: '美国' });
    expect(us.carriers.map((c: { name: string }) => c.name).sort()).toEqual(['AT&T', 'T-Mobile', 'Verizon']);
    expect(us.regions.length).toBeGreaterThan(0);
    const zh = await t.app.inject({ method: 'GET', url: '/api/v1/countries', headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(zh.json()[0].name).toBe('美国');
    expect(await t.ctx.db.selectFrom('modems').select('id').execute()).toHaveLength(45);
    const tariffs = await t.app.inject({ method: 'GET', url: '/api/v1/tariffs' });
    expect(tariffs.json()).toHaveLength(24);
    expect(tariffs.json()[0]).toMatchObject({ period: 'day', periodDays: 1, price: '4000000', isShared: false });
    const tags = await t.app.inject({ method: 'GET', url: '/api/v1/modems/rotation-tags?lng=en' });
    expect(tags.json()[0]).toEqual({ value: 0, label: 'On demand (link or button)' });
    expect(tags.json().map((x: { value: number }) => x.value)).toEqual([0, 5, 10, 15, 30, 60]);
  });

  it('credits the demo balance once however often the seed runs', async () => {
    await t.ctx.db.insertInto('users').values({ email: t.config.DEMO_EMAIL, name: 'Demo', password_hash: 'x' }).execute();
    await seedCatalog(t.ctx);
    await seedCatalog(t.ctx);
    const rows = await t.ctx.db.selectFrom('balances').innerJoin('users', 'users.id', 'balances.user_id')
      .select('amount').where('users.email', '=', t.config.DEMO_EMAIL).execute();
    expect(rows.map((r) => r.amount)).toEqual([1000_000_000n]);
  });

  it('counts stock by carrier and refuses bad filters with 400', async () => {
    const cat = await seedTestCatalog(t);
    const countries = (await t.app.inject({ method: 'GET', url: '/api/v1/countries' })).json();
    const carrier = countries.find((c: { code: string }) => c.code === 'US').carriers[0]._id;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/modems/count/${cat.usId}?isShared=false&carrier_id=${carrier}` });
    expect(res.json()).toEqual({ count: 4 });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems/count/not-a-uuid' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/modems/count/${cat.usId}?isShared=maybe` })).statusCode).toBe(400);
  });

  it("checks an order's stock up to what it wants: exact below it, at least it otherwise (issue 31)", async () => {
    const cat = await seedTestCatalog(t);
    const catalog = new CatalogService(new CatalogRepository(t.ctx.db));
    const dedicated = { countryId: cat.usId, isShared: false, rotationInterval: 0 };
    const all = await new CatalogRepository(t.ctx.db).freeSlots(dedicated);
    expect(all).toBeGreaterThan(3);
    expect(await catalog.availableUpTo(dedicated, 3)).toBe(3);
    expect(await catalog.availableUpTo(dedicated, all + 5)).toBe(all);
    await leaveFreeDedicated(t, cat.usId, 2);
    expect(await catalog.availableUpTo(dedicated, 3)).toBe(2);
    // A shared modem has several slots: one modem read answers for them all.
    const shared = { countryId: cat.usId, isShared: true, rotationInterval: cat.sharedMonth.rotation_interval };
    expect(await catalog.availableUpTo(shared, 1)).toBeGreaterThanOrEqual(1);
    expect(await catalog.availableUpTo(shared, 1000)).toBe(await new CatalogRepository(t.ctx.db).freeSlots(shared));
  });
});

describe('coupons', () => {
  it('explains why a coupon cannot be used and applies a valid one', async () => {
    const cat = await seedTestCatalog(t);
    const c = await createCustomer(t, 1000);
    const base = { max_uses: null, max_uses_per_user: null, amount: null, percent: null, valid_from: null, valid_until: null, tariff_id: null, country_id: null };
    await t.ctx.db.insertInto('coupons').values([
      { ...base, name: 'TEN', type: 'percent', percent: 10 },
      { ...base, name: 'FIVEOFF', type: 'fixed', amount: 5_000_000n, max_uses_per_user: 1 },
      { ...base, name: 'OLD', type: 'percent', percent: 10, valid_until: new Date(Date.now() - 1000) },
      { ...base, name: 'LATER', type: 'percent', percent: 10, valid_from: new Date(Date.now() + 86_400_000) },
      { ...base, name: 'GONE', type: 'percent', percent: 10, max_uses: 0 },
      { ...base, name: 'WEEKONLY', type: 'percent', percent: 10, tariff_id: cat.dedicatedWeek.id },
    ]).execute();
    const check = (coupon_name: string, extra: Record<string, unknown> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/v1/coupons/check', ...json(c.cookie, { coupon_name, ...extra }) });
    expect((await check('ten')).json()).toEqual({ error: null, coupon: { name: 'TEN', type: 'percent', percent: 10 } });
    expect((await check('FIVEOFF')).json().coupon).toEqual({ name: 'FIVEOFF', type: 'fixed', amount: '5000000' });
    expect((await check('nope')).json().code).toBe('COUPON_UNKNOWN');
    expect((await check('OLD')).json().code).toBe('COUPON_EXPIRED');
    expect((await check('LATER')).json().code).toBe('COUPON_EXPIRED');
    expect((await check('GONE')).json().code).toBe('COUPON_USED_UP');
    expect((await check('WEEKONLY', { tariff_id: cat.dedicatedMonth.id })).json().code).toBe('COUPON_NOT_APPLICABLE');

    const buy = () => t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1, coupon: 'FIVEOFF',
    }) });
    const first = await buy();
    expect(first.json().data.payment).toMatchObject({ amount: '60000000', discount: '5000000', coupon: 'FIVEOFF' });
    const second = await buy();
    expect(second.json().code).toBe('COUPON_USED_UP');
  });
});
