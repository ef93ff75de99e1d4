import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { fillServerTexts } from '../../db/migrations/2026_12_05_1000_server_texts.js';
import { issueInvoice } from '../invoices/invoices.service.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

// Issue 14, item 3: what the server writes (notifications, payment and invoice descriptions) reads in the reader's
// language: the same rows read in en, ru and cn give three languages, whatever the customer's stored language.
let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeAll(async () => {
  t = await buildTestApp();
  cat = await seedTestCatalog(t);
});
afterAll(async () => { await t.close(); });

const LANGS = ['en', 'ru', 'cn'] as const;
const read = async (c: Customer, url: string, lng: string) => {
  const res = await t.app.inject({ method: 'GET', url, ...json(c.cookie, undefined, { 'accept-language': lng === 'cn' ? 'zh-CN' : lng }) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const notificationTexts = async (c: Customer, lng: string): Promise<string[]> =>
  (await read(c, '/api/v1/notifications', lng)).data.map((n: { text: string }) => n.text);

describe('server-made texts in the reader language', () => {
  it('an operator message written in three languages reads in the language of the request, else the stored one', async () => {
    const c = await createCustomer(t, 0, 'ru');
    await new NotificationsService(new NotificationsRepository(t.ctx.db)).sendOperatorMessage([c.id], { en: 'Maintenance tonight', ru: 'Сегодня ночью работы', cn: '今晚维护' });
    expect(await notificationTexts(c, 'en')).toEqual(['Maintenance tonight']);
    expect(await notificationTexts(c, 'ru')).toEqual(['Сегодня ночью работы']);
    expect(await notificationTexts(c, 'cn')).toEqual(['今晚维护']);
    // ?lng= wins over the header; no language asked: the customer's own (ru).
    const q = await t.app.inject({ method: 'GET', url: '/api/v1/notifications?lng=cn', ...json(c.cookie, undefined, { 'accept-language': 'en' }) });
    expect(q.json().data[0].text).toBe('今晚维护');
    const stored = await t.app.inject({ method: 'GET', url: '/api/v1/notifications', ...json(c.cookie) });
    expect(stored.json().data[0].text).toBe('Сегодня ночью работы');
    // The e-mail's text stays in the customer's language.
    const row = await t.ctx.db.selectFrom('notifications').select('text').where('user_id', '=', c.id).executeTakeFirstOrThrow();
    expect(row.text).toBe('Сегодня ночью работы');
    // Opening one (GET /notifications/:id) answers in the reader's language too; so does the dashboard.
    const [n] = (await read(c, '/api/v1/notifications', 'en')).data;
    expect((await read(c, `/api/v1/notifications/${n._id}`, 'cn')).text).toBe('今晚维护');
    expect((await read(c, '/api/v1/dashboard', 'en')).recentNotifications[0].text).toBe('Maintenance tonight');
  });

  // The port's default name too (issue 27, item 12): "Proxy 1" reads "Прокси 1" and "代理 1".
  it('a purchase and its renewal: payments, invoices and their notifications in en, ru and cn', async () => {
    const c = await createCustomer(t, 500, 'en');
    const buy = await t.app.inject({
      method: 'POST', url: '/api/v1/payment/balance/buy',
      ...json(c.cookie, { tariff_id: cat.dedicatedWeek.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1 }),
    });
    expect(buy.statusCode, buy.body).toBe(200);
    const portId = buy.json().data.modems[0]._id as string;
    const renew = await t.app.inject({
      method: 'POST', url: '/api/v1/payment/balance/renew', ...json(c.cookie, { basket: { [portId]: { periods: 1 } } }),
    });
    expect(renew.statusCode, renew.body).toBe(200);

    const payments = Object.fromEntries(await Promise.all(LANGS.map(async (l) =>
      [l, (await read(c, '/api/v1/payments', l)).map((p: { description: string }) => p.description)] as const)));
    expect(payments).toEqual({
      en: ['Renewal for Proxy 1', '4G United States Dedicated · Week - 1x port'],
      ru: ['Продление: Прокси 1', '4G США Выделенный · Неделя, портов: 1'],
      cn: ['续费：代理 1', '4G 美国 独享 · 周，1 个端口'],
    });

    const purchaseLine = Object.fromEntries(await Promise.all(LANGS.map(async (l) => {
      const invoices = (await read(c, '/api/v1/invoices', l)).data as Array<{ description: string; lines: Array<{ description: string }> }>;
      return [l, invoices.map((i) => [i.description, i.lines.map((x) => x.description)])] as const;
    })));
    expect(purchaseLine.en).toEqual([
      ['Renewal for Proxy 1', ['Proxy 1: Dedicated · Week, 7 d']],
      ['4G United States Dedicated · Week - 1x port', ['Mobile proxy port, United States: Dedicated · Week']],
    ]);
    expect(purchaseLine.ru).toEqual([
      ['Продление: Прокси 1', ['Прокси 1: Выделенный · Неделя, 7 дн.']],
      ['4G США Выделенный · Неделя, портов: 1', ['Мобильный прокси-порт, США: Выделенный · Неделя']],
    ]);
    expect(purchaseLine.cn).toEqual([
      ['续费：代理 1', ['代理 1：独享 · 周，7 天']],
      ['4G 美国 独享 · 周，1 个端口', ['移动代理端口，美国：独享 · 周']],
    ]);

    expect(await notificationTexts(c, 'en')).toEqual([
      'Renewal of $20.00 completed for Proxy 1',
      'Payment of $20.00 completed: 4G United States Dedicated · Week - 1x port',
    ]);
    expect(await notificationTexts(c, 'ru')).toEqual([
      'Продление на $20.00 оплачено: Прокси 1',
      'Оплата $20.00 прошла: 4G США Выделенный · Неделя, портов: 1',
    ]);
    expect(await notificationTexts(c, 'cn')).toEqual([
      '已成功续费 $20.00：代理 1',
      '已成功支付 $20.00：4G 美国 独享 · 周，1 个端口',
    ]);
  });

  it('a card top-up: its payment, invoice and "payment received" notification in en, ru and cn', async () => {
    const c = await createCustomer(t, 0, 'cn');
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: 2500 }) });
    expect(res.statusCode, res.body).toBe(200);
    const confirm = await t.app.inject({
      method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm',
      ...json(c.cookie, { clientSecret: res.json().payment_intent.client_secret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' }),
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const expected = { en: 'Account top-up', ru: 'Пополнение баланса', cn: '账户充值' };
    for (const l of LANGS) {
      expect((await read(c, '/api/v1/payments', l))[0].description).toBe(expected[l]);
      const [invoice] = (await read(c, '/api/v1/invoices', l)).data;
      expect([invoice.description, invoice.lines[0].description]).toEqual([expected[l], expected[l]]);
    }
    expect(await notificationTexts(c, 'en')).toEqual(['Payment of $25.00 received: Account top-up']);
    // A pending payment's description too.
    const pending = await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(c.cookie, { coin: 'usdt', amount: '10' }) });
    expect(pending.statusCode, pending.body).toBe(200);
    for (const l of LANGS) expect((await read(c, '/api/v1/pending-payments', l)).data[0].description).toBe(expected[l]);
    expect(await notificationTexts(c, 'ru')).toEqual(['Получен платёж $25.00: Пополнение баланса']);
    expect(await notificationTexts(c, 'cn')).toEqual(['已收到付款 $25.00：账户充值']);
  });

  it('the migration gives rows written the old way (English words around localized names) their texts', async () => {
    const c = await createCustomer(t, 0, 'en');
    const db = t.ctx.db;
    const old = [
      { kind: 'topup' as const, description: 'Account top-up', tariff_id: null, modem_count: 0 },
      { kind: 'renewal' as const, description: 'Renewal for Proxy 7', tariff_id: null, modem_count: 1 },
      { kind: 'purchase' as const, description: '4G United States Dedicated · Week - 2x port', tariff_id: cat.dedicatedWeek.id, modem_count: 2 },
    ];
    for (const [i, p] of old.entries()) {
      const id = randomUUID();
      await db.transaction().execute(async (tx) => {
        await tx.insertInto('payments').values({
          id, user_id: c.id, provider: 'balance', kind: p.kind, status: 'completed', amount: 1_000_000n, discount: 0n,
          description: p.description, modem_count: p.modem_count, tariff_id: p.tariff_id, coupon: null, coupon_id: null,
          created_at: new Date(Date.UTC(2026, 0, 1 + i)),
        }).execute();
        await issueInvoice(tx, id, [{ description: p.description, quantity: 1, unitAmount: 1_000_000n, amount: 1_000_000n }]);
      });
    }
    await db.insertInto('notifications').values({
      id: randomUUID(), user_id: c.id, type: 'payment', text_key: 'payment_received',
      params: JSON.stringify({ amount: '1.00', description: 'Account top-up' }), text: 'Payment of $1.00 received: Account top-up',
    }).execute();

    await fillServerTexts(db as unknown as Kysely<unknown>);
    expect((await read(c, '/api/v1/payments', 'ru')).map((p: { description: string }) => p.description)).toEqual([
      '4G США Выделенный · Неделя, портов: 2', 'Продление: Proxy 7', 'Пополнение баланса',
    ]);
    const invoices = (await read(c, '/api/v1/invoices', 'cn')).data.map((i: { description: string }) => i.description);
    expect(invoices).toEqual(['4G 美国 独享 · 周，2 个端口', '续费：Proxy 7', '账户充值']);
    expect(await notificationTexts(c, 'ru')).toEqual(['Получен платёж $1.00: Пополнение баланса']);
  });
});
