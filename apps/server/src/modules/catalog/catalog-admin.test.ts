import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';
import { TOPICS } from '../../lib/bus-topics.js';

describe('admin catalog', () => {
  let t: TestApp;
  let admin: Signed;
  beforeEach(async () => { t = await buildTestApp(); admin = await signedIn(t); });
  afterEach(async () => { await t.close(); });

  it('adds a country, carrier, region and tariff in three languages; announces tariff changes; refuses deleting what is used', async () => {
    const events: unknown[] = [];
    t.ctx.bus.on(TOPICS.tariffChanged, (e) => events.push(e));
    const realtime: Array<{ action: string; tariff: { _id: string } }> = [];
    t.ctx.bus.on(TOPICS.tariffRealtime, (e) => realtime.push(e as (typeof realtime)[number]));
    const names = { en: 'Poland', ru: 'Польша', cn: '波兰' };
    const country = await call(t, admin.cookie, 'POST', '/api/v1/admin/countries', { code: 'pl', names });
    expect(country.statusCode).toBe(200);
    const countryId = country.json().country.id;
    expect(country.json().country).toMatchObject({ code: 'PL', names });
    expect((await call(t, admin.cookie, 'POST', '/api/v1/admin/countries', { code: 'PL', names })).json().code).toBe('ALREADY_EXISTS');
    const carrier = (await call(t, admin.cookie, 'POST', '/api/v1/admin/carriers', { countryId, name: 'Play' })).json().carrier;
    const region = (await call(t, admin.cookie, 'POST', '/api/v1/admin/regions', { countryId, carrierId: carrier.id, names: { en: 'Warsaw' } })).json().region;
    const tariff = await call(t, admin.cookie, 'POST', '/api/v1/admin/tariffs', {
      names: { en: 'Poland dedicated', ru: 'Польша выделенный', cn: '波兰独享' }, price: '30000000', period: 'month',
      countryId, carrierId: carrier.id, regionId: region.id, isShared: false, recurring: true,
    });
    expect(tariff.statusCode).toBe(200);
    expect(tariff.json().tariff).toMatchObject({ periodDays: 30, recurring: true, active: true, price: '30000000' });
    const tariffId = tariff.json().tariff.id;
    const publicTariffs = (await call(t, null, 'GET', '/api/v1/tariffs')).json();
    expect(publicTariffs.find((x: { _id: string }) => x._id === tariffId)).toMatchObject({ recurring: true, name: { cn: '波兰独享' } });

    const off = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/tariffs/${tariffId}`, { recurring: false, active: false });
    expect(off.json().tariff).toMatchObject({ recurring: false, active: false });
    expect(events).toEqual([{ tariffId, action: 'created' }, { tariffId, action: 'updated' }]);
    expect(realtime.map((e) => [e.action, e.tariff._id])).toEqual([['update', tariffId], ['delete', tariffId]]);
    const [update] = await auditOf(t, 'tariff.update');
    expect(update).toMatchObject({ before: { recurring: true, active: true }, after: { recurring: false, active: false } });

    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/countries/${countryId}`)).json().code).toBe('IN_USE');
    const otherCountry = (await call(t, admin.cookie, 'POST', '/api/v1/admin/countries', { code: 'CZ', names: { en: 'Czechia', ru: 'Чехия', cn: '捷克' } })).json().country;
    expect((await call(t, admin.cookie, 'POST', '/api/v1/admin/regions', { countryId: otherCountry.id, carrierId: carrier.id, names: { en: 'Prague' } })).json().code)
      .toBe('REFERENCE_INVALID');
    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/countries/${otherCountry.id}`)).statusCode).toBe(200);
    expect(await auditOf(t, 'country.delete')).toHaveLength(1);
    expect((await call(t, admin.cookie, 'POST', '/api/v1/admin/countries', { code: 'DE', names: { en: 'Germany', ru: '', cn: '德国' } })).statusCode).toBe(400);
  });

  it('deletes a tariff made by mistake, audited and gone from the public list, but not one a port was sold on (issue 28, item 11)', async () => {
    const { seedTestCatalog, createCustomer, json } = await import('../../../test/fixtures.js');
    const cat = await seedTestCatalog(t);
    const realtime: Array<{ action: string; tariff: { _id: string } }> = [];
    t.ctx.bus.on(TOPICS.tariffRealtime, (e) => realtime.push(e as (typeof realtime)[number]));
    const mistake = (await call(t, admin.cookie, 'POST', '/api/v1/admin/tariffs', {
      names: { en: 'Typo', ru: 'Опечатка', cn: '错误' }, price: '1000000', period: 'day', countryId: cat.usId, isShared: false,
    })).json().tariff;
    const deleted = await call(t, admin.cookie, 'DELETE', `/api/v1/admin/tariffs/${mistake.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(realtime.at(-1)).toMatchObject({ action: 'delete', tariff: { _id: mistake.id } });
    expect((await call(t, null, 'GET', '/api/v1/tariffs')).json().some((x: { _id: string }) => x._id === mistake.id)).toBe(false);
    expect(await auditOf(t, 'tariff.delete')).toMatchObject([{ before: { id: mistake.id }, after: null }]);
    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/tariffs/${mistake.id}`)).statusCode).toBe(404);

    const buyer = await createCustomer(t, 100);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(buyer.cookie, {
      tariff_id: cat.dedicatedWeek.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const inUse = await call(t, admin.cookie, 'DELETE', `/api/v1/admin/tariffs/${cat.dedicatedWeek.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().code).toBe('IN_USE');
  });

  it('names a region in three languages, Russian and Chinese optional; customers read it in their language, English where none (issue 27, item 12)', async () => {
    const countryId = (await call(t, admin.cookie, 'POST', '/api/v1/admin/countries', { code: 'PL', names: { en: 'Poland', ru: 'Польша', cn: '波兰' } })).json().country.id;
    const created = await call(t, admin.cookie, 'POST', '/api/v1/admin/regions', { countryId, names: { en: ' Warsaw ', ru: '', cn: '' } });
    expect(created.statusCode, created.body).toBe(200);
    const region = created.json().region;
    expect(region).toMatchObject({ name: 'Warsaw', names: { en: 'Warsaw', ru: '', cn: '' } });
    const regionIn = async (lng: string) => {
      const countries = (await call(t, null, 'GET', `/api/v1/countries?lng=${lng}`)).json() as Array<{ _id: string; regions: Array<{ _id: string; name: string; names: unknown }> }>;
      return countries.find((c) => c._id === countryId)!.regions.find((r) => r._id === region.id)!;
    };
    expect((await regionIn('ru')).name).toBe('Warsaw');

    const renamed = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/regions/${region.id}`, { names: { en: 'Warsaw', ru: 'Варшава', cn: '华沙' } });
    expect(renamed.json().region).toMatchObject({ names: { en: 'Warsaw', ru: 'Варшава', cn: '华沙' } });
    expect(await regionIn('ru')).toEqual({ _id: region.id, name: 'Варшава', names: { en: 'Warsaw', ru: 'Варшава', cn: '华沙' }, carrier_id: null });
    expect((await regionIn('cn')).name).toBe('华沙');
    expect((await regionIn('en')).name).toBe('Warsaw');
    const [update] = await auditOf(t, 'region.update');
    expect(update).toMatchObject({ before: { name: 'Warsaw', name_ru: null, name_cn: null }, after: { name: 'Warsaw', name_ru: 'Варшава', name_cn: '华沙' } });
    // Moving the carrier alone keeps the names.
    expect((await call(t, admin.cookie, 'PATCH', `/api/v1/admin/regions/${region.id}`, { carrierId: null })).json().region.names.cn).toBe('华沙');

    // English is required; no name is longer than 100 characters.
    for (const names of [{ en: '  ', ru: 'Варшава' }, { ru: 'Варшава' }, { en: 'Warsaw', cn: '华'.repeat(101) }]) {
      const refused = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/regions/${region.id}`, { names });
      expect(refused.statusCode, JSON.stringify(names)).toBe(400);
    }
    expect((await regionIn('ru')).name).toBe('Варшава');
  });

  it('rotation-interval choices are rows operators edit, and the public rotation tags follow them', async () => {
    const tags = async (lng: string) => (await call(t, null, 'GET', `/api/v1/modems/rotation-tags?lng=${lng}`)).json() as Array<{ value: number; label: string }>;
    expect((await tags('en')).map((x) => x.value)).toEqual([0, 5, 10, 15, 30, 60]);
    await call(t, admin.cookie, 'POST', '/api/v1/admin/rotation-intervals', { minutes: 2, sort: 1 });
    await call(t, admin.cookie, 'PATCH', '/api/v1/admin/rotation-intervals/60', { labels: { en: 'Hourly', ru: 'Каждый час', cn: '每小时' } });
    await call(t, admin.cookie, 'DELETE', '/api/v1/admin/rotation-intervals/15');
    const en = await tags('en');
    expect(en.map((x) => x.value)).toEqual([0, 2, 5, 10, 30, 60]);
    expect(en.at(-1)).toEqual({ value: 60, label: 'Hourly' });
    expect((await tags('cn')).at(-1)).toEqual({ value: 60, label: '每小时' });
    expect(en[1]!.label).toMatch(/2/);
    expect(await auditOf(t, 'rotation-interval.delete')).toHaveLength(1);
  });
});
