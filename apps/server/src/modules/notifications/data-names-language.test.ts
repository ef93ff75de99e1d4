import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { markDefaultPortNames } from '../../db/migrations/2026_12_12_1831_default_port_names.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';

// Issue 27, item 12: the data strings a customer reads are in the reader's language too: a region's name (the
// operator's, English standing in for one not given) and a port's default name ("Proxy 1", "Прокси 1", "代理 1"),
// while a name the customer chose stays as typed. The same rows read through the API in en, ru and cn.
let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeAll(async () => {
  t = await buildTestApp();
  cat = await seedTestCatalog(t);
});
afterAll(async () => { await t.close(); });

type Lng = 'en' | 'ru' | 'cn';
const asked = (lng: Lng) => ({ 'accept-language': lng === 'cn' ? 'zh-CN,zh;q=0.9' : lng });
async function call(c: Customer, method: string, url: string, lng: Lng, body?: unknown) {
  const res = await t.app.inject({ method: method as 'GET', url, ...json(c.cookie, body, asked(lng)) });
  expect(res.statusCode, `${method} ${url} (${lng}): ${res.body}`).toBe(200);
  return res.json();
}
interface PortView { _id: string; modem_name: string; region: { _id: string; name: string } | null }
const ports = async (c: Customer, lng: Lng): Promise<PortView[]> => call(c, 'GET', '/api/v1/modems', lng);
// Ports bought together are listed in id order, not by number: compare the names as sets.
const names = async (c: Customer, lng: Lng) => (await ports(c, lng)).map((p) => p.modem_name).sort();
const buy = (c: Customer, lng: Lng, modemCount: number) => call(c, 'POST', '/api/v1/payment/balance/buy', lng, {
  tariff_id: cat.dedicatedWeek.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount,
});

describe('data strings in the reader language', () => {
  it('a port\'s region reads in the reader\'s language, English where the operator gave none', async () => {
    const c = await createCustomer(t, 100, 'en');
    await buy(c, 'en', 1);
    const [port] = await ports(c, 'en');
    const regionId = port!.region!._id;
    const region = await t.ctx.db.selectFrom('regions').selectAll().where('id', '=', regionId).executeTakeFirstOrThrow();
    // The seed names its regions in three languages.
    expect(region.name_ru).toBeTruthy();
    expect(region.name_cn).toBeTruthy();
    expect(port!.region!.name).toBe(region.name);
    expect((await ports(c, 'ru'))[0]!.region!.name).toBe(region.name_ru);
    expect((await ports(c, 'cn'))[0]!.region!.name).toBe(region.name_cn);
    // The catalog Add Proxies reads names it the same.
    const countries = await call(c, 'GET', '/api/v1/countries', 'ru') as Array<{ regions: Array<{ _id: string; name: string; names: unknown }> }>;
    const listed = countries.flatMap((x) => x.regions).find((r) => r._id === regionId);
    expect(listed).toMatchObject({ name: region.name_ru, names: { en: region.name, ru: region.name_ru, cn: region.name_cn } });

    // Without a Chinese name, Chinese readers read English; the kept lists follow the change (the trigger announces it).
    await t.ctx.db.updateTable('regions').set({ name_cn: null }).where('id', '=', regionId).execute();
    await expect.poll(async () => (await ports(c, 'cn'))[0]!.region!.name).toBe(region.name);
    expect((await ports(c, 'ru'))[0]!.region!.name).toBe(region.name_ru);
    await t.ctx.db.updateTable('regions').set({ name_cn: region.name_cn }).where('id', '=', regionId).execute();
  });

  it('default port names read in the reader\'s language everywhere they are shown; a chosen name stays as typed', async () => {
    const c = await createCustomer(t, 500, 'en');
    const bought = await buy(c, 'ru', 2);
    // The purchase's own answer, in the language asked.
    expect(bought.data.payment.ports.map((p: { modem_name: string }) => p.modem_name).sort()).toEqual(['Прокси 1', 'Прокси 2']);
    expect(bought.data.modems.map((p: PortView) => p.modem_name).sort()).toEqual(['Прокси 1', 'Прокси 2']);
    expect(await names(c, 'en')).toEqual(['Proxy 1', 'Proxy 2']);
    expect(await names(c, 'ru')).toEqual(['Прокси 1', 'Прокси 2']);
    expect(await names(c, 'cn')).toEqual(['代理 1', '代理 2']);

    const listed = await ports(c, 'en');
    const first = listed.find((p) => p.modem_name === 'Proxy 1');
    const second = listed.find((p) => p.modem_name === 'Proxy 2');
    // The default sent back as the list showed it (a form saved unchanged) stays the default...
    await call(c, 'PATCH', `/api/v1/modems/${first!._id}`, 'ru', { modem_name: 'Прокси 1' });
    expect(await names(c, 'cn')).toEqual(['代理 1', '代理 2']);
    // ...and a name the customer types is theirs, in every language.
    const renamed = await call(c, 'PATCH', `/api/v1/modems/${second!._id}`, 'ru', { modem_name: '  Прокси для EU ' });
    expect(renamed.modem_name).toBe('Прокси для EU');
    expect(await names(c, 'en')).toEqual(['Proxy 1', 'Прокси для EU']);
    expect(await names(c, 'ru')).toEqual(['Прокси 1', 'Прокси для EU']);
    expect(await names(c, 'cn')).toEqual(['Прокси для EU', '代理 1'].sort());
    const stored = await t.ctx.db.selectFrom('ports').select(['name', 'default_number']).where('user_id', '=', c.id).orderBy('created_at').orderBy('id').execute();
    expect(stored.map((p) => [p.name, p.default_number]).sort()).toEqual([['Proxy 1', 1], ['Прокси для EU', null]]);

    // Renewed: the payment, its invoice line and its notification name the ports in each reader's language.
    await call(c, 'POST', '/api/v1/payment/balance/renew', 'en', { basket: { [first!._id]: { periods: 1 }, [second!._id]: { periods: 1 } } });
    const renewal = async (lng: Lng) => {
      const [payment] = await call(c, 'GET', '/api/v1/payments', lng) as Array<{ description: string; ports: Array<{ modem_name: string }> }>;
      const [invoice] = (await call(c, 'GET', '/api/v1/invoices', lng)).data as Array<{ lines: Array<{ description: string }> }>;
      const [notification] = (await call(c, 'GET', '/api/v1/notifications', lng)).data as Array<{ text: string }>;
      return { description: payment!.description, ports: payment!.ports.map((p) => p.modem_name), lines: invoice!.lines.map((l) => l.description), notification: notification!.text };
    };
    const cn = await renewal('cn');
    expect(cn.ports.sort()).toEqual(['Прокси для EU', '代理 1'].sort());
    expect(cn.description).toMatch(/代理 1/);
    expect(cn.description).toMatch(/Прокси для EU/);
    expect(cn.lines.some((l) => l.startsWith('代理 1'))).toBe(true);
    expect(cn.notification).toMatch(/代理 1/);
    const en = await renewal('en');
    expect(en.description).toMatch(/^Renewal for .*Proxy 1/);
    expect(en.lines.some((l) => l.startsWith('Proxy 1:'))).toBe(true);
    const ru = await renewal('ru');
    expect(ru.notification).toMatch(/Прокси 1/);
    expect(ru.notification).not.toMatch(/Proxy 1/);

    // Traffic against quota names them the same way.
    const quota = (await call(c, 'GET', '/api/v1/traffic/quota', 'cn')).data as Array<{ modem_name: string }>;
    expect(quota.map((q) => q.modem_name).sort()).toEqual(['Прокси для EU', '代理 1'].sort());
  });

  it('ports named by default before this read their default name in each language; the rest keep theirs', async () => {
    const c = await createCustomer(t, 100, 'en');
    await buy(c, 'en', 1);
    const [port] = await ports(c, 'en');
    // As an older port was stored: the English default with no mark, next to one the customer had renamed.
    await t.ctx.db.updateTable('ports').set({ name: 'Proxy 7', default_number: null }).where('id', '=', port!._id).execute();
    await expect.poll(async () => (await names(c, 'ru'))[0]).toBe('Proxy 7');
    await markDefaultPortNames(t.ctx.db as unknown as Kysely<unknown>);
    await expect.poll(async () => (await names(c, 'ru'))[0]).toBe('Прокси 7');
    expect((await names(c, 'cn'))[0]).toBe('代理 7');
    await t.ctx.db.updateTable('ports').set({ name: 'Proxy 7 EU', default_number: null }).where('id', '=', port!._id).execute();
    await markDefaultPortNames(t.ctx.db as unknown as Kysely<unknown>);
    await expect.poll(async () => (await names(c, 'ru'))[0]).toBe('Proxy 7 EU');
  });
});
