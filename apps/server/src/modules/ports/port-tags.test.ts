import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, portsAfterAnnouncements, seedTestCatalog, type Customer } from '../../../test/fixtures.js';

// Issue 16, item 4: a customer tags their ports and writes a note on each, in the dashboard and through the API;
// GET /api/v1/modems?tag= lists the ports that carry a tag. Tags are one per name whatever the case, sorted.

let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeEach(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated' });
  cat = await seedTestCatalog(t);
});
afterEach(async () => { await t.close(); });

async function buyPorts(c: Customer, n: number): Promise<string[]> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: n,
  }) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.modems as Array<{ _id: string }>).map((m) => m._id);
}

const patch = (c: Customer, id: string, body: unknown) =>
  t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${id}`, ...json(c.cookie, body) });
const listTagged = (c: Customer, tag: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/modems?tag=${encodeURIComponent(tag)}`, ...json(c.cookie) });

describe('per-port tags and notes', () => {
  it('keeps each tag once, in lower case and sorted, with the note; new ports have none', async () => {
    const c = await createCustomer(t, 1000);
    const [id] = await buyPorts(c, 1);
    expect((await portsAfterAnnouncements<{ tags: string[]; note: string }>(t, c.cookie))[0]).toMatchObject({ tags: [], note: '' });

    const res = await patch(c, id!, { tags: ['Scraper-EU', ' scraper-eu ', 'team:growth', 'парсер', '爬虫'], note: '  For the price monitor  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tags: ['scraper-eu', 'team:growth', 'парсер', '爬虫'].sort(), note: 'For the price monitor' });
    // The kept list (the dashboard's poll) follows the change.
    expect((await portsAfterAnnouncements<{ _id: string; tags: string[]; note: string }>(t, c.cookie))[0])
      .toMatchObject({ tags: res.json().tags, note: 'For the price monitor' });

    // Other fields leave tags and note alone; [] and "" remove them.
    expect((await patch(c, id!, { modem_name: 'Monitor' })).json()).toMatchObject({ tags: res.json().tags, note: 'For the price monitor' });
    expect((await patch(c, id!, { tags: [], note: '' })).json()).toMatchObject({ tags: [], note: '' });
  });

  it('refuses a tag that is empty, too long, has spaces or other signs, more than 10 tags, and a note over 500 characters', async () => {
    const c = await createCustomer(t, 1000);
    const [id] = await buyPorts(c, 1);
    for (const bad of [{ tags: [''] }, { tags: ['   '] }, { tags: ['has space'] }, { tags: ['x'.repeat(33)] }, { tags: ['a/b'] },
      { tags: ['-leading'] }, { tags: ['x\u0000y'] }, { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, { tags: 'scraper' },
      { note: 'n'.repeat(501) }, { note: 5 }]) {
      const res = await patch(c, id!, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().code).toBe('VALIDATION');
    }
    expect((await patch(c, id!, { tags: ['x'.repeat(32)], note: 'n'.repeat(500) })).statusCode).toBe(200);
    expect((await listTagged(c, 'has space')).statusCode).toBe(400);
  });

  it('lists only the ports with a tag (any case asked), only the customer\'s own, and the same through an API key', async () => {
    const alice = await createCustomer(t, 1000);
    const bob = await createCustomer(t, 1000);
    const [a1, a2, a3] = await buyPorts(alice, 3);
    const [b1] = await buyPorts(bob, 1);
    await patch(alice, a1!, { tags: ['scraper-eu'] });
    await patch(alice, a3!, { tags: ['scraper-eu', 'backup'] });
    await patch(alice, a2!, { tags: ['backup'] });
    await patch(bob, b1!, { tags: ['scraper-eu'] });

    const ids = async (res: Awaited<ReturnType<typeof listTagged>>) => {
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Array<{ _id: string }>).map((p) => p._id).sort();
    };
    expect(await ids(await listTagged(alice, 'scraper-eu'))).toEqual([a1!, a3!].sort());
    expect(await ids(await listTagged(alice, 'SCRAPER-EU'))).toEqual([a1!, a3!].sort());
    expect(await ids(await listTagged(alice, 'nobody'))).toEqual([]);
    expect(await ids(await listTagged(bob, 'scraper-eu'))).toEqual([b1!]);

    const key = (await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(alice.cookie, { name: 'tags' }) })).json().key as string;
    const viaKey = await t.app.inject({ method: 'GET', url: '/api/v1/modems?tag=backup', headers: { authorization: `Bearer ${key}` } });
    expect(await ids(viaKey)).toEqual([a2!, a3!].sort());
    const tagged = await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${a2}`, headers: { authorization: `Bearer ${key}` }, payload: { tags: ['backup', 'api'] } });
    expect(tagged.json().tags).toEqual(['api', 'backup']);
  });

  it('keeps ?lng= beside a tag: the country is named in the language asked', async () => {
    const c = await createCustomer(t, 1000);
    const [id] = await buyPorts(c, 1);
    await patch(c, id!, { tags: ['x'] });
    const en = (await t.app.inject({ method: 'GET', url: '/api/v1/modems?tag=x&lng=en', ...json(c.cookie) })).json()[0].country.name;
    const ru = (await t.app.inject({ method: 'GET', url: '/api/v1/modems?tag=x&lng=ru', ...json(c.cookie) })).json()[0].country.name;
    expect(en).not.toBe(ru);
  });
});
