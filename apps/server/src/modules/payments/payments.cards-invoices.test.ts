import { TOPICS } from '../../lib/bus-topics.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, portsAfterAnnouncements, seedTestCatalog, usdtBalance } from '../../../test/fixtures.js';

// Subscriptions, saved cards, invoices and bus events, on the sandbox card provider (same event path as Stripe).
let t: TestApp;
let catalog: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeAll(async () => {
  t = await buildTestApp();
  catalog = await seedTestCatalog(t);
});
afterAll(async () => { await t.close(); });
afterEach(async () => { await expectLedgerMatchesBalances(t.ctx.db); });

const card = (clientSecret: string, cardNumber = '4242424242424242') => ({ clientSecret, cardNumber, expiry: '12/34', cvc: '123' });
const buyBody = (tariffId: string, countryId: string) => ({ tariff_id: tariffId, country_id: countryId, isShared: false, rotationInterval: 0, modemCount: 1 });

describe('card subscription (monthly recurring tariff)', () => {
  it('the first invoice buys the port, a monthly charge renews it, a deleted subscription stops renewing', async () => {
    const c = await createCustomer(t);
    const tariff = catalog.dedicatedMonth;
    const sub = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-subscription', ...json(c.cookie, buyBody(tariff.id, catalog.usId)) });
    expect(sub.statusCode).toBe(200);
    expect(sub.json()).toMatchObject({ clientSecret: expect.stringMatching(/_secret_/), error: null });
    await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(c.cookie, card(sub.json().clientSecret)) });
    const [port] = (await t.app.inject({ method: 'GET', url: '/api/v1/modems', ...json(c.cookie) })).json();
    expect(port).toBeDefined();

    const row = await t.ctx.db.selectFrom('card_subscriptions').select(['id', 'status', 'current_period_end']).where('user_id', '=', c.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    const sandbox = t.app.payments.rt.card as SandboxCardProvider;
    // The sandbox charges on schedule: the durable job due at the period's end.
    await t.app.jobs.runDueJobs(row.current_period_end!);
    const [renewed] = await portsAfterAnnouncements<{ expiresAt: string }>(t, c.cookie);
    expect(new Date(renewed!.expiresAt).getTime() - new Date(port.expiresAt).getTime()).toBe(30 * 86_400_000);

    await sandbox.cancelSubscriptionNow(row.id);
    expect((await t.ctx.db.selectFrom('card_subscriptions').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('canceled');
    // A late charge of the ended subscription is still credited (the money arrived) but renews nothing.
    const before = await usdtBalance(t, c.id);
    await t.app.payments.cards.handle({
      type: 'invoice.paid', eventId: 'evt_late', objectId: 'in_late', amountCents: 1000, currency: 'usd', metadata: {},
      paymentIntentId: null, subscriptionId: row.id, customerId: null, billingReason: 'subscription_cycle',
    });
    expect(await usdtBalance(t, c.id)).toBe(before + 10_000_000n);
    // Read from the database: the kept list would show the old expiry for a moment even if the charge had renewed it.
    const after = await t.ctx.db.selectFrom('ports').select('expires_at').where('id', '=', port._id).executeTakeFirstOrThrow();
    expect(after.expires_at.toISOString()).toBe(renewed!.expiresAt);
  });
});

describe('saved cards', () => {
  it('saves a card, pays with it (credited through the event), lists and removes it; another customer cannot use it', async () => {
    const c = await createCustomer(t);
    const setup = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/setup-payment-intent', ...json(c.cookie) })).json();
    const saved = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm-setup', ...json(c.cookie, card(setup.clientSecret)) });
    expect(saved.statusCode).toBe(200);
    const cards = (await t.app.inject({ method: 'GET', url: '/api/v1/payment/stripe/cards', ...json(c.cookie) })).json().data;
    expect(cards).toEqual([expect.objectContaining({ id: saved.json().id, last4: '4242', expMonth: 12, expYear: 2034 })]);

    const paid = await t.app.inject({ method: 'POST', url: `/api/v1/payment/stripe/buy-with-saved-card/${cards[0].id}`, ...json(c.cookie, { amount: 3000 }) });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data.payment).toMatchObject({ provider: 'card', status: 'completed', amount: '30000000' });
    expect(await usdtBalance(t, c.id)).toBe(30_000_000n);

    const other = await createCustomer(t);
    const foreign = await t.app.inject({ method: 'POST', url: `/api/v1/payment/stripe/buy-with-saved-card/${cards[0].id}`, ...json(other.cookie, { amount: 3000 }) });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/payment/stripe/${cards[0].id}`, ...json(other.cookie) })).statusCode).toBe(404);
    expect(await usdtBalance(t, other.id)).toBe(0n);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/payment/stripe/${cards[0].id}`, ...json(c.cookie) })).json()).toEqual({ error: null });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/payment/stripe/cards', ...json(c.cookie) })).json().data).toEqual([]);
  });

  it("saves a card only for the customer whose setup intent it is: another customer's client secret is refused", async () => {
    const c = await createCustomer(t);
    const other = await createCustomer(t);
    const setup = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/setup-payment-intent', ...json(c.cookie) })).json();
    const stolen = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm-setup', ...json(other.cookie, card(setup.clientSecret)) });
    expect(stolen.statusCode).toBe(404);
    for (const who of [c, other]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/payment/stripe/cards', ...json(who.cookie) })).json().data).toEqual([]);
    }
    // The owner can still use the intent the refused attempt did not consume.
    const saved = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm-setup', ...json(c.cookie, card(setup.clientSecret)) });
    expect(saved.statusCode).toBe(200);
  });
});

describe('invoices', () => {
  it('every completed payment, from the balance too, gets the next number of the year; PDFs are private', async () => {
    const c = await createCustomer(t, 100);
    await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, buyBody(catalog.dedicatedWeek.id, catalog.usId)) });
    const intent = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: 500 }) })).json();
    await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(c.cookie, card(intent.payment_intent.client_secret)) });
    const invoices = (await t.app.inject({ method: 'GET', url: '/api/v1/invoices', ...json(c.cookie) })).json().data;
    expect(invoices.map((i: { provider: string }) => i.provider).sort()).toEqual(['balance', 'card']);
    const seqs = invoices.map((i: { number: string }) => Number(i.number.slice(-6))).sort((a: number, b: number) => a - b);
    expect(seqs[1]).toBe(seqs[0] + 1);
    const purchase = invoices.find((i: { provider: string }) => i.provider === 'balance');
    expect(purchase.lines[0]).toMatchObject({ quantity: 1, amount: catalog.dedicatedWeek.price.toString() });
    expect(purchase.customer).toMatchObject({ name: 'Test Customer', email: expect.stringMatching(/@test\.local$/) });

    const other = await createCustomer(t);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/invoices/${purchase._id}.pdf`, ...json(other.cookie) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/invoices/not-a-file.pdf', ...json(c.cookie) })).statusCode).toBe(404);
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/invoices/${purchase._id}.pdf`, ...json(c.cookie) });
    expect(pdf.headers['content-disposition']).toContain(`${purchase.number}.pdf`);
    expect(pdf.rawPayload.length).toBeGreaterThan(1000);
  });

  it('prints a Cyrillic customer name (embedded DejaVu Sans)', async () => {
    const c = await createCustomer(t, 10);
    await t.ctx.db.updateTable('users').set({ name: 'Иван Петров', company_name: '北京公司' }).where('id', '=', c.id).execute();
    const intent = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: 100 }) })).json();
    await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(c.cookie, card(intent.payment_intent.client_secret)) });
    const [invoice] = (await t.app.inject({ method: 'GET', url: '/api/v1/invoices', ...json(c.cookie) })).json().data;
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/invoices/${invoice._id}.pdf`, ...json(c.cookie) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.toString('latin1')).toContain('DejaVuSans');
  });
});

describe('realtime-ready bus events', () => {
  it("publishes 'payment:completed' and 'balance:changed' for the customer when a payment completes", async () => {
    const c = await createCustomer(t);
    const seen: Array<{ topic: string; data: { userId: string; payment?: { _id: string; status: string } } }> = [];
    const off = [
      t.ctx.bus.on(TOPICS.paymentCompleted, (data) => seen.push({ topic: TOPICS.paymentCompleted.name, data: data as (typeof seen)[number]['data'] })),
      t.ctx.bus.on(TOPICS.balanceChanged, (data) => seen.push({ topic: TOPICS.balanceChanged.name, data })),
    ];
    const p = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(c.cookie, { amount: '5', coin: 'usdt' }) })).json().data;
    await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${p._id}/simulate`, ...json(c.cookie) });
    off.forEach((f) => f());
    expect(seen).toEqual([
      { topic: 'payment:completed', data: { userId: c.id, payment: expect.objectContaining({ _id: p._id, status: 'completed' }) } },
      { topic: 'balance:changed', data: { userId: c.id } },
    ]);
  });
});
