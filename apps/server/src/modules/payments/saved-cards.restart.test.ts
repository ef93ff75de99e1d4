import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { DatabaseHandle } from '../../db/database.js';
import { createCustomer, json, seedTestCatalog, usdtBalance, type Customer } from '../../../test/fixtures.js';
import type { TestApp } from '../../../test/helpers.js';
import { seedPortEnv } from '../../../test/seed-ports.js';
import { openTestDatabase } from '../../../test/template-db.js';

// Issue 27, item 3: the sandbox card provider kept saved cards in the process's memory, so a restart lost them, and
// the card each subscription charges with them. The app is built twice on one database, as a restart does.
const DAY = 86_400_000;
let database: DatabaseHandle;
let config: ReturnType<typeof loadConfig>;
const apps: TestApp[] = [];

beforeAll(async () => {
  config = loadConfig({
    NODE_ENV: 'test', CAPTCHA_PROVIDER: 'off', RATE_LIMIT_AUTH_PER_MINUTE: '1000', PUBLIC_URL: 'http://localhost:3000',
    DATA_DIR: '/tmp/cellport-test', WEB_DIST: '/nonexistent', ...await seedPortEnv(),
  });
  database = await openTestDatabase(inject('dbTemplate'));
}, 120_000);
afterAll(async () => {
  for (const t of apps) await t.app.close();
  await database.close();
});

/** A server process on the shared database; a restart is closing one and starting the next. */
async function start(): Promise<TestApp> {
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await app.ready();
  const t: TestApp = { app, ctx, config, close: () => app.close() };
  apps.push(t);
  return t;
}

const card = (clientSecret: string, cardNumber = '4242424242424242', expiry = '12/34') => ({ clientSecret, cardNumber, expiry, cvc: '123' });
const post = (t: TestApp, c: Customer, url: string, body?: unknown) => t.app.inject({ method: 'POST', url, ...json(c.cookie, body ?? {}) });
const get = (t: TestApp, c: Customer, url: string) => t.app.inject({ method: 'GET', url, ...json(c.cookie) });

describe('after a restart of the server (sandbox card provider)', () => {
  it("the customer's saved cards are still listed and chargeable, and their subscription still charges its card and can be cancelled", async () => {
    const before = await start();
    const catalog = await seedTestCatalog(before);
    const c = await createCustomer(before);
    // A monthly port by card (its card is saved as the subscription's), then a second card saved in Billing.
    const sub = await post(before, c, '/api/v1/payment/stripe/create-subscription', {
      tariff_id: catalog.dedicatedMonth.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    });
    expect(sub.json()).toMatchObject({ error: null });
    expect((await post(before, c, '/api/v1/payment/stripe/sandbox/confirm', card(sub.json().clientSecret, '5555555555554444', '03/31'))).statusCode).toBe(200);
    const setup = (await post(before, c, '/api/v1/payment/stripe/setup-payment-intent')).json();
    const saved = await post(before, c, '/api/v1/payment/stripe/sandbox/confirm-setup', card(setup.clientSecret, '4242424242424242', '11/33'));
    expect(saved.statusCode).toBe(200);
    const cardsBefore = (await get(before, c, '/api/v1/payment/stripe/cards')).json().data;
    expect(cardsBefore).toHaveLength(2);
    await before.app.close();

    const after = await start();
    // The same cards, newest first, with the expiry typed (not made up by a rebuild).
    const cards = (await get(after, c, '/api/v1/payment/stripe/cards')).json().data;
    expect(cards).toEqual(cardsBefore);
    expect(cards).toEqual([
      expect.objectContaining({ id: saved.json().id, brand: 'visa', last4: '4242', expMonth: 11, expYear: 2033 }),
      expect.objectContaining({ brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 }),
    ]);
    const paid = await post(after, c, `/api/v1/payment/stripe/buy-with-saved-card/${saved.json().id}`, { amount: 2500 });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data.payment).toMatchObject({ provider: 'card', status: 'completed', amount: '25000000' });
    expect(await usdtBalance(after, c.id)).toBe(25_000_000n);

    // The subscription, which the restarted sandbox never saw, renews on its own card at the period's end…
    const [row] = (await get(after, c, '/api/v1/subscriptions')).json().data;
    expect(row).toMatchObject({ status: 'active', card: { brand: 'mastercard', last4: '4444' } });
    const port = await after.ctx.db.selectFrom('ports').select('expires_at').where('user_id', '=', c.id).executeTakeFirstOrThrow();
    await after.app.jobs.runDueJobs(new Date(row.currentPeriodEnd));
    const renewed = await after.ctx.db.selectFrom('ports').select('expires_at').where('user_id', '=', c.id).executeTakeFirstOrThrow();
    expect(renewed.expires_at.getTime()).toBe(port.expires_at.getTime() + 30 * DAY);
    expect(await usdtBalance(after, c.id)).toBe(25_000_000n);

    // …and can be switched to the other saved card and cancelled at the period's end.
    expect((await post(after, c, `/api/v1/subscriptions/${row.id}/card`, { paymentMethodId: saved.json().id })).statusCode).toBe(200);
    const cancelled = await post(after, c, `/api/v1/subscriptions/${row.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect((await get(after, c, '/api/v1/subscriptions')).json().data[0]).toMatchObject({
      id: row.id, cancelAtPeriodEnd: true, card: { brand: 'visa', last4: '4242' },
    });
  });
});
