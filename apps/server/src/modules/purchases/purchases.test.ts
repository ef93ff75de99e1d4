import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, leaveFreeDedicated, seedTestCatalog, usdtBalance } from '../../../test/fixtures.js';

let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeEach(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '30', MODEM_SIM_SAME_IP_RATE: '0' });
  cat = await seedTestCatalog(t);
});
afterEach(async () => {
  await expectLedgerMatchesBalances(t.ctx.db);
  await t.close();
});

const buyBody = (overrides: Record<string, unknown> = {}) => ({
  tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1, ...overrides,
});

describe('buying from the balance', () => {
  it('buys ports: debits the balance, returns credentials, records the payment and a notification', async () => {
    const c = await createCustomer(t, 1000);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, buyBody({ modemCount: 2 })) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.error).toBeNull();
    expect(body.data.modems).toHaveLength(2);
    const port = body.data.modems[0];
    expect(port.login).toMatch(/^[A-Za-z0-9_-]{4,32}$/);
    expect(port.password.length).toBeGreaterThanOrEqual(6);
    expect(port.rotationLink).toMatch(/^http:\/\/localhost:3000\/api\/v1\/rotate\/[A-Za-z0-9_-]+$/);
    expect(port.status).toBe('active');
    expect(port.country.code).toBe('US');
    expect(body.data.payment).toMatchObject({ provider: 'balance', kind: 'purchase', status: 'completed', amount: '130000000', discount: '0', modemCount: 2 });
    expect(body.data.payment.description).toBe('4G United States Dedicated · Month - 2x port');
    expect(await usdtBalance(t, c.id)).toBe(870_000_000n);

    const account = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { cookie: c.cookie } });
    expect(account.json()).toEqual({ btc: { balance: '0', address: expect.any(String) }, usdt: { balance: '870000000', address: expect.any(String) } });
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { cookie: c.cookie } });
    expect(list.json().map((p: { _id: string }) => p._id).sort()).toEqual(body.data.modems.map((p: { _id: string }) => p._id).sort());
    const payments = await t.app.inject({ method: 'GET', url: '/api/v1/payments', headers: { cookie: c.cookie } });
    expect(payments.json()[0].ports).toHaveLength(2);
    const notes = await t.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', c.id).execute();
    expect(notes.map((n) => n.text)).toEqual(['Payment of $130.00 completed: 4G United States Dedicated · Month - 2x port']);
  });

  it('refuses without enough money and changes nothing', async () => {
    const c = await createCustomer(t, 10);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, buyBody()) });
    expect(res.statusCode).toBe(402);
    expect(res.json().code).toBe('INSUFFICIENT_FUNDS');
    expect(await usdtBalance(t, c.id)).toBe(10_000_000n);
    expect(await t.ctx.db.selectFrom('ports').selectAll().execute()).toHaveLength(0);
    const used = await t.ctx.db.selectFrom('modems').select('id').where('used_slots', '>', 0).execute();
    expect(used).toHaveLength(0);
  });

  it('answers OUT_OF_STOCK with the available count, and TARIFF_MISMATCH / TARIFF_NOT_FOUND', async () => {
    const c = await createCustomer(t, 1000);
    await leaveFreeDedicated(t, cat.usId, 2);
    const count = await t.app.inject({ method: 'GET', url: `/api/v1/modems/count/${cat.usId}?isShared=false` });
    expect(count.json()).toEqual({ count: 2 });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, buyBody({ modemCount: 3 })) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'OUT_OF_STOCK', error: 'Not enough free ports for this choice: 2 available', available: 2 });
    const mismatch = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, buyBody({ isShared: true })) });
    expect(mismatch.json().code).toBe('TARIFF_MISMATCH');
    const unknown = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, buyBody({ tariff_id: crypto.randomUUID() })) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('TARIFF_NOT_FOUND');
    expect(await usdtBalance(t, c.id)).toBe(1000_000_000n);
  });

  it('fills shared modems and counts their free capacity', async () => {
    const c = await createCustomer(t, 1000);
    const before = await t.app.inject({ method: 'GET', url: `/api/v1/modems/count/${cat.usId}?isShared=true&rotationInterval=10` });
    expect(before.json()).toEqual({ count: 15 });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy',
      ...json(c.cookie, buyBody({ tariff_id: cat.sharedMonth.id, isShared: true, rotationInterval: 10, modemCount: 6 })) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.modems.every((p: { isShared: boolean }) => p.isShared)).toBe(true);
    const after = await t.app.inject({ method: 'GET', url: `/api/v1/modems/count/${cat.usId}?isShared=true&rotationInterval=10` });
    expect(after.json()).toEqual({ count: 9 });
    const wrongInterval = await t.app.inject({ method: 'GET', url: `/api/v1/modems/count/${cat.usId}?isShared=true&rotationInterval=5` });
    expect(wrongInterval.json()).toEqual({ count: 0 });
  });

  it('replays the first answer for the same Idempotency-Key and refuses the key for another request', async () => {
    const c = await createCustomer(t, 1000);
    const opts = json(c.cookie, buyBody(), { 'idempotency-key': 'k-1' });
    const first = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...opts });
    const second = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...opts });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await usdtBalance(t, c.id)).toBe(935_000_000n);
    const other = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, buyBody({ modemCount: 2 }), { 'idempotency-key': 'k-1' }) });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('answers malformed bodies with 4xx, never 5xx, and 401 without a session', async () => {
    const c = await createCustomer(t, 1000);
    const bodies: unknown[] = [
      {}, { ...buyBody(), modemCount: 0 }, { ...buyBody(), modemCount: 51 }, { ...buyBody(), modemCount: 1.5 },
      { ...buyBody(), tariff_id: 'nope' }, { ...buyBody(), isShared: 'yes' }, [], 'text', { ...buyBody(), coupon: 5 },
    ];
    for (const body of bodies) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, body) });
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, JSON.stringify(body)).toBeLessThan(500);
    }
    const renewBodies: unknown[] = [{}, { basket: {} }, { basket: { x: { periods: 1 } } }, { basket: { [crypto.randomUUID()]: { periods: 1, days: 2 } } },
      { basket: { [crypto.randomUUID()]: { days: 366 } } }];
    for (const body of renewBodies) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/renew', ...json(c.cookie, body) });
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, JSON.stringify(body)).toBeLessThan(500);
    }
    const anon = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', headers: { origin: 'http://localhost:3000' }, payload: buyBody() });
    expect(anon.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/account' })).statusCode).toBe(401);
  });
});

describe('renewing', () => {
  it('renews by periods and by custom days (pro rata, rounded half-up to the cent) from the later of now and the expiry', async () => {
    const c = await createCustomer(t, 1000);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy',
      ...json(c.cookie, buyBody({ tariff_id: cat.dedicatedWeek.id, modemCount: 2 })) });
    const [a, b] = bought.json().data.modems as Array<{ _id: string; expiresAt: string }>;
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/renew',
      ...json(c.cookie, { basket: { [a!._id]: { periods: 2 }, [b!._id]: { days: 3 } } }) });
    expect(res.statusCode, res.body).toBe(200);
    // $20 × 2 + $20 × 3 / 7 ($8.571428…, rounded half-up to $8.57) = 40_000_000 + 8_570_000
    expect(res.json().data.payment).toMatchObject({ kind: 'renewal', amount: '48570000', modemCount: 2 });
    const byId = Object.fromEntries(res.json().data.modems.map((p: { _id: string; expiresAt: string }) => [p._id, p.expiresAt]));
    expect(Date.parse(byId[a!._id]) - Date.parse(a!.expiresAt)).toBe(14 * 86_400_000);
    expect(Date.parse(byId[b!._id]) - Date.parse(b!.expiresAt)).toBe(3 * 86_400_000);
    expect(await usdtBalance(t, c.id)).toBe(1000_000_000n - 40_000_000n - 48_570_000n);
  });

  it("writes the invoice lines in the reader's language: country and tariff (its period once), coupon, renewal days", async () => {
    await t.ctx.db.insertInto('coupons').values({ name: 'VESNA', type: 'percent', percent: 10, max_uses: null, max_uses_per_user: null,
      amount: null, valid_from: null, valid_until: null, tariff_id: null, country_id: null }).execute();
    const c = await createCustomer(t, 1000);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy?lng=ru', ...json(c.cookie, buyBody({ coupon: 'vesna' })) });
    expect(bought.statusCode, bought.body).toBe(200);
    const port = bought.json().data.modems[0] as { _id: string; modem_name: string };
    const renewed = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/renew?lng=cn', ...json(c.cookie, { basket: { [port._id]: { days: 10 } } }) });
    expect(renewed.statusCode, renewed.body).toBe(200);
    // Read in the language asked (issue 14, item 3), whichever the buyer used.
    const invoices = async (lng: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/invoices?lng=${lng}`, ...json(c.cookie) }))
      .json().data as Array<{ lines: Array<{ description: string; amount: string }> }>;
    const [, purchase] = await invoices('ru');
    const [renewal] = await invoices('cn');
    expect(purchase!.lines.map((l) => l.description)).toEqual(['Мобильный прокси-порт, США: Выделенный · Месяц', 'Купон VESNA']);
    expect(purchase!.lines[1]!.amount).toBe('-6500000');
    // The port's default name too reads in the reader's language (issue 27, item 12): bought as "Прокси 1", read as "代理 1".
    expect(port.modem_name).toBe('Прокси 1');
    expect(renewal!.lines.map((l) => l.description)).toEqual(['代理 1：独享 · 月，10 天']);
  });

  it('answers 404 for a port of another customer and changes nothing', async () => {
    const owner = await createCustomer(t, 1000);
    const other = await createCustomer(t, 1000);
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(owner.cookie, buyBody()) });
    const portId = bought.json().data.modems[0]._id as string;
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/renew', ...json(other.cookie, { basket: { [portId]: { periods: 1 } } }) });
    expect(res.statusCode).toBe(404);
    expect(await usdtBalance(t, other.id)).toBe(1000_000_000n);
  });
});
