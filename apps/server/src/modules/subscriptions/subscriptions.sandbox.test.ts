import { couponDiscount, renewalPrice } from '@cellport/shared/schemas/catalog';
import type { VolumeDiscounts } from '@cellport/shared/schemas/tariff-offers';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import { auditOf, signedIn } from '../../../test/console-helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { buildCountingApp, type CountingApp } from '../notifications/test-support.js';
import { createCustomer, json, seedTestCatalog, usdtBalance, type Customer } from '../../../test/fixtures.js';

// Issue 27 item 1: a card subscription the customer sees and manages, on the sandbox card provider, which behaves
// like Stripe: it renews on schedule (a durable job at the period's end), fails with the card that declines charges
// (past_due, retried, then ended), and ends when canceled. Each test has a customer of its own; the clock is moved
// by running the jobs due at a later time.
const DAY = 86_400_000;
let t: CountingApp;
let catalog: Awaited<ReturnType<typeof seedTestCatalog>>;
beforeAll(async () => {
  t = await buildCountingApp();
  catalog = await seedTestCatalog(t);
}, 120_000);
afterAll(async () => { await t.close(); });
afterEach(async () => { await expectLedgerMatchesBalances(t.ctx.db); });

const sandbox = () => t.app.payments.rt.card as SandboxCardProvider;
const card = (clientSecret: string, cardNumber = '4242424242424242') => ({ clientSecret, cardNumber, expiry: '12/34', cvc: '123' });
const get = (c: Customer, url: string) => t.app.inject({ method: 'GET', url, ...json(c.cookie) });
const post = (c: Customer, url: string, body?: unknown) => t.app.inject({ method: 'POST', url, ...json(c.cookie, body ?? {}) });
const list = async (c: Customer) => (await get(c, '/api/v1/subscriptions')).json().data as Array<Record<string, unknown> & { id: string; nextChargeAt: string | null; currentPeriodEnd: string }>;
const emailOf = async (c: Customer) => (await t.ctx.db.selectFrom('users').select('email').where('id', '=', c.id).executeTakeFirstOrThrow()).email;
async function mails(c: Customer) {
  await t.settled();
  return t.ctx.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to_email', '=', await emailOf(c)).orderBy('created_at').execute();
}
async function portOf(c: Customer) {
  return t.ctx.db.selectFrom('ports').select(['id', 'name', 'expires_at']).where('user_id', '=', c.id).executeTakeFirstOrThrow();
}

const monthlyOrder = () => ({ tariff_id: catalog.dedicatedMonth.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1 });
/** What the customer's card was charged, oldest first, as the ledger booked it. */
async function cardCharges(c: Customer): Promise<bigint[]> {
  const rows = await t.ctx.db.selectFrom('ledger_entries').select('amount').where('user_id', '=', c.id).where('kind', '=', 'card').orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => BigInt(r.amount));
}

/** A customer who subscribed to a monthly dedicated port with the 4242 card. */
async function subscribed(language = 'en'): Promise<Customer> {
  const c = await createCustomer(t, 0, language);
  const res = await post(c, '/api/v1/payment/stripe/create-subscription', {
    tariff_id: catalog.dedicatedMonth.id, country_id: catalog.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  });
  expect(res.json()).toMatchObject({ error: null });
  expect((await post(c, '/api/v1/payment/stripe/sandbox/confirm', card(res.json().clientSecret))).statusCode).toBe(200);
  return c;
}

/** Saves the card that saves fine but declines every charge (4000 0000 0000 0341) and answers its id. */
async function saveDecliningCard(c: Customer): Promise<string> {
  const setup = (await post(c, '/api/v1/payment/stripe/setup-payment-intent')).json();
  const saved = await post(c, '/api/v1/payment/stripe/sandbox/confirm-setup', card(setup.clientSecret, '4000000000000341'));
  expect(saved.statusCode).toBe(200);
  return saved.json().id;
}

describe('a customer sees their card subscription', () => {
  it('lists it with its port, amount, card, next charge and status; another customer sees nothing of it', async () => {
    const c = await subscribed();
    const port = await portOf(c);
    const [sub] = await list(c);
    expect(sub).toMatchObject({
      status: 'active', cancelAtPeriodEnd: false, amount: String(catalog.dedicatedMonth.price), currency: 'USD', intervalDays: 30,
      card: { brand: 'visa', last4: '4242' }, ports: [{ id: port.id, name: port.name }], lastFailure: null, canceledAt: null,
    });
    expect(sub!.nextChargeAt).toBe(sub!.currentPeriodEnd);
    // The charge falls when the port's paid time runs out (within the moment between paying and buying).
    expect(Math.abs(new Date(sub!.nextChargeAt!).getTime() - port.expires_at.getTime())).toBeLessThan(60_000);

    const other = await createCustomer(t);
    expect(await list(other)).toEqual([]);
    for (const action of ['cancel', 'resume']) {
      const res = await post(other, `/api/v1/subscriptions/${sub!.id}/${action}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('SUBSCRIPTION_NOT_FOUND');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/subscriptions' })).statusCode).toBe(401);
  });
});

describe('the sandbox behaves like Stripe', () => {
  it('renews on schedule: e-mails the charge 3 days before, charges at the period end and renews the port once', async () => {
    const c = await subscribed();
    const [sub] = await list(c);
    const end = new Date(sub!.currentPeriodEnd);
    const port = await portOf(c);

    await t.app.jobs.runDueJobs(new Date(end.getTime() - 3 * DAY));
    const reminder = (await mails(c)).filter((m) => m.subject === 'Your card will be charged soon');
    expect(reminder).toHaveLength(1);
    const price = Number(catalog.dedicatedMonth.price) / 1e6;
    expect(reminder[0]!.text).toContain(`Your card Visa •••• 4242 will be charged $${price.toFixed(2)} on ${end.toISOString().slice(0, 10)} for ${port.name}`);

    const balance = await usdtBalance(t, c.id);
    await t.app.jobs.runDueJobs(end);
    await t.app.jobs.runDueJobs(end); // a second round at the same time charges nothing more
    expect((await portOf(c)).expires_at.getTime()).toBe(port.expires_at.getTime() + 30 * DAY);
    // One ledger movement in (the card), one out (the renewal): the balance is as it was.
    expect(await usdtBalance(t, c.id)).toBe(balance);
    const [renewed] = await list(c);
    expect(renewed).toMatchObject({ status: 'active', currentPeriodEnd: new Date(end.getTime() + 30 * DAY).toISOString() });
    const cardEntries = await t.ctx.db.selectFrom('ledger_entries').select(['amount', 'kind']).where('user_id', '=', c.id).where('kind', '=', 'card').execute();
    expect(cardEntries.map((e) => BigInt(e.amount))).toEqual([catalog.dedicatedMonth.price, catalog.dedicatedMonth.price]);
  });

  it('cancel at the period end: nothing more is charged, it ends then; resume before that and it renews', async () => {
    const c = await subscribed('ru');
    const [sub] = await list(c);
    const end = new Date(sub!.currentPeriodEnd);

    const canceled = await post(c, `/api/v1/subscriptions/${sub!.id}/cancel`);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().data).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, nextChargeAt: null });
    expect((await post(c, `/api/v1/subscriptions/${sub!.id}/cancel`)).json().code).toBe('SUBSCRIPTION_ALREADY_CANCELLING');
    const resumed = await post(c, `/api/v1/subscriptions/${sub!.id}/resume`);
    expect(resumed.json().data).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, nextChargeAt: sub!.currentPeriodEnd });
    expect((await post(c, `/api/v1/subscriptions/${sub!.id}/resume`)).json().code).toBe('SUBSCRIPTION_NOT_CANCELLING');
    await post(c, `/api/v1/subscriptions/${sub!.id}/cancel`);

    // Set to end: no reminder of a charge, and at the period's end it ends with nothing charged.
    const port = await portOf(c);
    const balance = await usdtBalance(t, c.id);
    await t.app.jobs.runDueJobs(end);
    expect(await list(c)).toMatchObject([{ status: 'canceled', cancelAtPeriodEnd: false, nextChargeAt: null, canceledAt: end.toISOString() }]);
    expect(await usdtBalance(t, c.id)).toBe(balance);
    expect((await portOf(c)).expires_at).toEqual(port.expires_at);
    const sent = await mails(c);
    expect(sent.map((m) => m.subject)).not.toContain('Скоро списание с вашей карты');
    expect(sent.filter((m) => m.subject === 'Ваша подписка по карте завершена')).toHaveLength(1);
    expect((await post(c, `/api/v1/subscriptions/${sub!.id}/resume`)).json().code).toBe('SUBSCRIPTION_ENDED');
  });

  it('fails with the decline card: past_due with a retry in 3 days, one e-mail per failure, ended after the last retry', async () => {
    const c = await subscribed('cn');
    const declining = await saveDecliningCard(c);
    const [sub] = await list(c);
    const changed = await post(c, `/api/v1/subscriptions/${sub!.id}/card`, { paymentMethodId: declining });
    expect(changed.json().data).toMatchObject({ card: { last4: '0341' } });
    const end = new Date(sub!.currentPeriodEnd);
    const port = await portOf(c);
    const balance = await usdtBalance(t, c.id);

    await t.app.jobs.runDueJobs(end);
    const [failed] = await list(c);
    expect(failed).toMatchObject({ status: 'past_due', lastFailure: 'Your card was declined.', nextChargeAt: new Date(end.getTime() + 3 * DAY).toISOString() });
    expect(await usdtBalance(t, c.id)).toBe(balance);
    expect((await portOf(c)).expires_at).toEqual(port.expires_at);
    const failedMails = (await mails(c)).filter((m) => m.subject === '您的银行卡扣款未成功');
    expect(failedMails).toHaveLength(1);
    expect(failedMails[0]!.text).toContain(`我们将于 ${new Date(end.getTime() + 3 * DAY).toISOString().slice(0, 10)} 再次尝试`);

    // The retries at 3, 5 and 7 days fail too; after the last the subscription ends.
    let at = new Date(failed!.nextChargeAt!);
    for (let i = 0; i < 3; i++) {
      await t.app.jobs.runDueJobs(at);
      const [now] = await list(c);
      if (i < 2) at = new Date(now!.nextChargeAt!);
      else expect(now).toMatchObject({ status: 'canceled', nextChargeAt: null });
    }
    const subjects = (await mails(c)).map((m) => m.subject);
    expect(subjects.filter((s) => s === '您的银行卡扣款未成功')).toHaveLength(3);
    expect(subjects.filter((s) => s === '您的银行卡订阅已结束')).toHaveLength(1);
  });

  it('a failed charge told once however often the event arrives', async () => {
    const c = await subscribed();
    const [sub] = await list(c);
    await post(c, `/api/v1/subscriptions/${sub!.id}/card`, { paymentMethodId: await saveDecliningCard(c) });
    await t.app.jobs.runDueJobs(new Date(sub!.currentPeriodEnd));
    const event = {
      type: 'invoice.payment_failed' as const, eventId: 'evt_repeat_1', objectId: 'in_repeat_1', amountCents: 100, currency: 'usd', metadata: {},
      paymentIntentId: null, subscriptionId: sub!.id, customerId: null, billingReason: 'subscription_cycle', failureMessage: 'Your card was declined.',
    };
    await t.app.payments.cards.handle(event);
    await t.app.payments.cards.handle(event);
    expect((await mails(c)).filter((m) => m.subject === 'Your card payment did not go through')).toHaveLength(2);
  });

  it('the port of a live subscription is not also auto-renewed from the balance', async () => {
    const c = await subscribed();
    const port = await portOf(c);
    await t.ctx.db.updateTable('ports').set({ auto_renew: true }).where('id', '=', port.id).execute();
    const { credit } = await import('../../../test/fixtures.js');
    await credit(t, c.id, catalog.dedicatedMonth.price * 2n);
    const balance = await usdtBalance(t, c.id);
    // The balance's auto-renewal is due 24 h before expiry; the subscription's charge comes at the period's end.
    await t.app.jobs.runDueJobs(new Date(port.expires_at.getTime() - DAY + 1000));
    expect(await usdtBalance(t, c.id)).toBe(balance);
    expect((await portOf(c)).expires_at).toEqual(port.expires_at);
  });

  it('a subscription the sandbox forgot (a restart) is rebuilt from the database and charged on time', async () => {
    const c = await subscribed();
    const [sub] = await list(c);
    const port = await portOf(c);
    // What a restart does to the sandbox's memory.
    (sandbox() as unknown as { subscriptions: Map<string, unknown> }).subscriptions.delete(sub!.id);
    await t.app.jobs.runDueJobs(new Date(sub!.currentPeriodEnd));
    expect((await portOf(c)).expires_at.getTime()).toBe(port.expires_at.getTime() + 30 * DAY);
  });
});

describe('a first-order coupon discounts the first charge only', () => {
  it('the first charge is the quote with the coupon; the subscription, its reminder and every renewal are the full price', async () => {
    const price = catalog.dedicatedMonth.price;
    const first = price - couponDiscount(price, { type: 'percent', percent: 20 });
    await t.ctx.db.insertInto('coupons').values({ name: 'SUBFIRST20', type: 'percent', percent: 20, amount: null, max_uses: null,
      max_uses_per_user: null, valid_from: null, valid_until: null, tariff_id: null, country_id: null }).execute();
    const c = await createCustomer(t);
    const res = await post(c, '/api/v1/payment/stripe/create-subscription', { ...monthlyOrder(), coupon: 'subfirst20' });
    expect(res.json()).toMatchObject({ error: null });
    expect((await post(c, '/api/v1/payment/stripe/sandbox/confirm', card(res.json().clientSecret))).statusCode).toBe(200);

    // The first charge, its ledger entry and its invoice carry the coupon.
    expect(await cardCharges(c)).toEqual([first]);
    const [bought] = (await get(c, '/api/v1/invoices')).json().data as Array<{ amount: string; lines: Array<{ amount: string }> }>;
    expect(BigInt(bought!.amount)).toBe(first);
    expect(bought!.lines.map((l) => BigInt(l.amount))).toEqual([price, first - price]);

    // What renews every period is the tariff's price: shown so, reminded so, charged so, and the port renewed by it.
    const [sub] = await list(c);
    expect(sub).toMatchObject({ status: 'active', amount: String(price) });
    const end = new Date(sub!.currentPeriodEnd);
    const port = await portOf(c);
    await t.app.jobs.runDueJobs(new Date(end.getTime() - 3 * DAY));
    const [reminder] = (await mails(c)).filter((m) => m.subject === 'Your card will be charged soon');
    expect(reminder!.text).toContain(`will be charged $${(Number(price) / 1e6).toFixed(2)} on`);
    for (let period = 1; period <= 2; period++) {
      await t.app.jobs.runDueJobs(new Date(end.getTime() + (period - 1) * 30 * DAY));
      expect(await cardCharges(c)).toEqual([first, ...Array<bigint>(period).fill(price)]);
      expect((await portOf(c)).expires_at.getTime()).toBe(port.expires_at.getTime() + period * 30 * DAY);
      expect(await usdtBalance(t, c.id)).toBe(0n);
    }
  });
});

describe('a subscription\'s money over coupons, prices and quantities (property)', () => {
  it('first charge = the quote, every renewal = the full price of the ports, all whole cents, never negative', async () => {
    const tariff = catalog.dedicatedMonth;
    const restock = async () => {
      await t.ctx.db.updateTable('ports').set({ status: 'released' }).execute();
      await t.ctx.db.updateTable('modems').set({ used_slots: 0 }).execute();
    };
    const noSteps: VolumeDiscounts = { quantity: [], days: [] };
    const coupons = fc.oneof(
      fc.integer({ min: 1, max: 100 }).map((percent) => ({ type: 'percent' as const, percent, amount: null })),
      fc.integer({ min: 1, max: 10_000 }).map((cents) => ({ type: 'fixed' as const, percent: null, amount: BigInt(cents) * 10_000n })),
    );
    const steps = fc.constantFrom<VolumeDiscounts>(noSteps, { quantity: [{ min: 2, percent: 7 }], days: [{ min: 30, percent: 3 }] });
    let run = 0;
    let paid = 0;
    try {
      await fc.assert(fc.asyncProperty(fc.integer({ min: 100, max: 20_000 }), fc.integer({ min: 1, max: 2 }), coupons, steps, async (priceCents, count, coupon, discounts) => {
        await restock();
        const price = BigInt(priceCents) * 10_000n;
        await t.ctx.db.updateTable('tariffs').set({ price, volume_discounts: JSON.stringify(discounts) }).where('id', '=', tariff.id).execute();
        const name = `PROPSUB${++run}`;
        await t.ctx.db.insertInto('coupons').values({ name, ...coupon, max_uses: null, max_uses_per_user: null, valid_from: null, valid_until: null,
          tariff_id: null, country_id: null }).execute();
        const c = await createCustomer(t);
        const body = { ...monthlyOrder(), modemCount: count, coupon: name };
        const quote = BigInt((await post(c, '/api/v1/payment/quote', body)).json().data.total);
        const full = renewalPrice(price, 30, { periods: 1 }) * BigInt(count);
        const res = await post(c, '/api/v1/payment/stripe/create-subscription', body);
        if (quote < 1_000_000n) {
          // Below a card payment's $1 minimum: refused before anything is created, as a one-time payment is.
          expect(res.json().code).toBe('AMOUNT_INVALID');
          return;
        }
        expect((await post(c, '/api/v1/payment/stripe/sandbox/confirm', card(res.json().clientSecret))).statusCode).toBe(200);
        const [sub] = await list(c);
        expect(BigInt(sub!.amount as string)).toBe(full);
        await t.app.jobs.runDueJobs(new Date(sub!.currentPeriodEnd));
        const charges = await cardCharges(c);
        expect(charges).toEqual([quote, full]);
        for (const m of charges) expect(m > 0n && m % 10_000n === 0n).toBe(true);
        expect(quote <= full).toBe(true);
        // Each charge paid for exactly what it bought: the purchase, then the renewal of every port.
        expect(await usdtBalance(t, c.id)).toBe(0n);
        paid++;
      }), {
        numRuns: 12,
        // Always among the runs: a percent coupon on one port, and a fixed one on two ports with a volume step.
        examples: [
          [6500, 1, { type: 'percent', percent: 20, amount: null }, noSteps],
          [899, 2, { type: 'fixed', percent: null, amount: 5_000_000n }, { quantity: [{ min: 2, percent: 7 }], days: [{ min: 30, percent: 3 }] }],
        ],
      });
      expect(paid).toBeGreaterThanOrEqual(2);
    } finally {
      await restock();
      await t.ctx.db.updateTable('tariffs').set({ price: tariff.price, volume_discounts: JSON.stringify(tariff.volume_discounts) }).where('id', '=', tariff.id).execute();
    }
  }, 300_000);
});

describe('the console', () => {
  it('lists subscriptions overall and per customer, and ends one now, audited; customers cannot', async () => {
    const admin = await signedIn(t, 'admin');
    const c = await subscribed();
    const [sub] = await list(c);
    const adminGet = (url: string) => t.app.inject({ method: 'GET', url, ...json(admin.cookie) });
    const mine = (await adminGet(`/api/v1/admin/subscriptions?userId=${c.id}`)).json().items;
    expect(mine).toMatchObject([{ id: sub!.id, userId: c.id, email: await emailOf(c), status: 'active' }]);
    expect((await adminGet('/api/v1/admin/subscriptions?status=active')).json().items.map((s: { id: string }) => s.id)).toContain(sub!.id);

    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/subscriptions', ...json(c.cookie) })).statusCode).toBe(403);
    const cancel = (body: unknown) => t.app.inject({ method: 'POST', url: `/api/v1/admin/subscriptions/${sub!.id}/cancel`, ...json(admin.cookie, body) });
    expect((await cancel({})).statusCode).toBe(400);
    const ended = await cancel({ reason: 'customer asked by phone' });
    expect(ended.statusCode).toBe(200);
    expect(ended.json().subscription).toMatchObject({ status: 'canceled', nextChargeAt: null });
    expect((await cancel({ reason: 'again' })).json().code).toBe('SUBSCRIPTION_ENDED');
    const [entry] = (await auditOf(t, 'subscription.cancel')).filter((e) => e.target_id === sub!.id);
    expect(entry).toMatchObject({ target_type: 'subscription' });
    expect(entry!.after).toMatchObject({ status: 'canceled', reason: 'customer asked by phone', when: 'now' });

    // Ended: no charge at what was the period's end.
    const balance = await usdtBalance(t, c.id);
    await t.app.jobs.runDueJobs(new Date(sub!.currentPeriodEnd));
    expect(await usdtBalance(t, c.id)).toBe(balance);
  });
});
