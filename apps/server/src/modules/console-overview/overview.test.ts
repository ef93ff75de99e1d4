import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { PAYMENT_EVENTS } from '@cellport/shared/schemas/payments';
import { createCustomer, json, seedTestCatalog } from '../../../test/fixtures.js';
import { call, signedIn, type Signed } from '../../../test/console-helpers.js';
import { OverviewCache } from './overview-cache.js';
import { overview } from './overview.service.js';
import { OverviewRepository } from './overview.repository.js';

const ORDER_DETAILS = JSON.stringify({
  tariff_id: null, country_id: null, carrier_id: null, region_id: null, isShared: null, rotationInterval: null, modemCount: null, basket: null, coupon: null,
});

describe('admin overview revenue is net of refunds', () => {
  let t: TestApp;
  let admin: Signed;
  beforeEach(async () => { t = await buildTestApp(); admin = await signedIn(t); });
  afterEach(async () => { await t.close(); });

  async function payment(userId: string, provider: string, amount: bigint, createdAt = new Date()) {
    const id = randomUUID();
    await t.ctx.db.insertInto('payments').values({
      id, user_id: userId, provider, kind: 'topup', status: 'completed', amount, description: 'Top-up', modem_count: 0, created_at: createdAt,
    }).execute();
    return id;
  }
  const debit = (userId: string, amount: bigint, kind: string, reference: string) =>
    t.ctx.db.insertInto('ledger_entries').values({ user_id: userId, coin: 'usdt', amount: -amount, kind, reference }).execute();

  it('subtracts console refunds and the refunds PayPal and Stripe announced, once each, by day and by method', async () => {
    const c = await createCustomer(t);
    // $2 from the balance, refunded in full from the console: worth nothing.
    const two = await payment(c.id, 'balance', 2_000_000n);
    expect((await call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${two}/refund`, { reason: 'never used' })).statusCode).toBe(200);
    // $1 from the balance, untouched.
    await payment(c.id, 'balance', 1_000_000n);
    // $10 by PayPal, $4 of it refunded at PayPal (IPN): $6.
    const paypal = await payment(c.id, 'paypal', 10_000_000n);
    await debit(c.id, 4_000_000n, 'paypal_refund', `paypal-refund:${paypal}:ipn:TXN-R1`);
    // $30 by card: $10 refunded from the console through Stripe (its debit is in the charge.refunded family too),
    // then Stripe reported $15 refunded in all, so the webhook took $5 more: $15 left.
    const card = await payment(c.id, 'card', 30_000_000n);
    await t.ctx.db.insertInto('payment_orders').values({
      id: card, user_id: c.id, provider: 'card', kind: 'topup', details: ORDER_DETAILS, amount: 30_000_000n, provider_amount: 3000n,
      description: 'Top-up', external_id: 'pi_net_1', status: 'completed',
    }).execute();
    await t.ctx.db.insertInto('payment_refunds').values({ payment_id: card, amount: 10_000_000n, method: 'provider', provider_ref: 're_1', reason: 'partial', admin_id: admin.id }).execute();
    await debit(c.id, 10_000_000n, 'refund_out', `card-refund:pi_net_1:admin:${card}`);
    await debit(c.id, 5_000_000n, 'card_refund', 'card-refund:pi_net_1:evt_2');
    // An old payment outside the period changes nothing.
    await payment(c.id, 'paypal', 50_000_000n, new Date(Date.now() - 40 * 86_400_000));

    const res = await call(t, admin.cookie, 'GET', '/api/v1/admin/overview?days=7');
    expect(res.statusCode).toBe(200);
    const ov = res.json();
    expect(ov.revenueByMethod).toEqual([
      { provider: 'card', amount: '15000000', count: 1 },
      { provider: 'paypal', amount: '6000000', count: 1 },
    ]);
    expect(ov.totalRevenue).toBe('21000000');
    // Balance payments are usage, net of their refunds too.
    expect(ov.balanceSpending).toEqual({ amount: '1000000', count: 1 });
    const today = new Date().toISOString().slice(0, 10);
    expect(ov.revenueByDay).toHaveLength(7);
    expect(ov.revenueByDay.at(-1)).toEqual({ date: today, amount: '21000000', count: 2 });
    expect(ov.revenueByDay.slice(0, -1).every((d: { amount: string }) => d.amount === '0')).toBe(true);
  });

  it('a $100 crypto top-up spent $40 from the balance is $100 of revenue and $40 of balance spending, not $140', async () => {
    const c = await createCustomer(t);
    // Money received: the crypto top-up credits the balance.
    await payment(c.id, 'crypto', 100_000_000n);
    // Money used: a purchase paid from that balance (no money arrives, the balance goes down).
    const bought = randomUUID();
    await t.ctx.db.insertInto('payments').values({
      id: bought, user_id: c.id, provider: 'balance', kind: 'purchase', status: 'completed', amount: 40_000_000n,
      description: 'Dedicated · Week', modem_count: 1, created_at: new Date(),
    }).execute();
    const ov = (await call(t, admin.cookie, 'GET', '/api/v1/admin/overview?days=30')).json();
    expect(ov.totalRevenue).toBe('100000000');
    expect(ov.revenueByMethod).toEqual([{ provider: 'crypto', amount: '100000000', count: 1 }]);
    expect(ov.revenueByDay.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), amount: '100000000', count: 1 });
    expect(ov.balanceSpending).toEqual({ amount: '40000000', count: 1 });
  });

  it('a refund never makes revenue negative', async () => {
    const c = await createCustomer(t);
    // A console refund to the balance and a later PayPal refund of the same payment: at most the payment is lost.
    const id = await payment(c.id, 'paypal', 20_000_000n);
    await t.ctx.db.insertInto('payment_refunds').values({ payment_id: id, amount: 5_000_000n, method: 'balance', provider_ref: null, reason: 'goodwill', admin_id: admin.id }).execute();
    await debit(c.id, 20_000_000n, 'paypal_refund', `paypal-refund:${id}:ipn:TXN-R2`);
    // A refund entry whose reference names no payment id takes nothing off anything.
    await debit(c.id, 1_000_000n, 'paypal_refund', 'paypal-refund:NOT-A-PAYMENT:ipn:TXN-R3');
    const ov = (await call(t, admin.cookie, 'GET', '/api/v1/admin/overview?days=1')).json();
    expect(ov.revenueByMethod).toEqual([{ provider: 'paypal', amount: '0', count: 0 }]);
    expect(ov.revenueByDay).toEqual([{ date: new Date().toISOString().slice(0, 10), amount: '0', count: 0 }]);
  });
});

describe('admin overview totals (one pass per table, decision 029)', () => {
  let t: TestApp;
  let admin: Signed;
  beforeEach(async () => { t = await buildTestApp(); admin = await signedIn(t); });
  afterEach(async () => { await t.close(); });

  it('counts customers, active and expiring ports, free stock, maintenance and queued replacements', async () => {
    const cat = await seedTestCatalog(t);
    const before = await overview(new OverviewRepository(t.ctx.db), 30);
    expect(before).toMatchObject({ activePorts: 0, expiringThisWeek: { count: 0, items: [] }, replacements: { queued: 0, maintenance: 0 }, customers: { total: 0, newInPeriod: 0 } });
    const stock = before.freeStock;
    expect(stock).toBeGreaterThan(10);

    // Customers: two new ones and one who signed up 40 days ago; the operator is not a customer.
    const buyer = await createCustomer(t, 1000);
    await createCustomer(t);
    const old = await createCustomer(t);
    await sql`update users set created_at = now() - interval '40 days' where id = ${old.id}`.execute(t.ctx.db);
    // Three dedicated ports (three modems leave the free stock): one ends in two days, one has expired (in its grace).
    const buy = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(buyer.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 3,
    }) });
    expect(buy.statusCode).toBe(200);
    const ports = await t.ctx.db.selectFrom('ports').select(['id', 'modem_id']).where('user_id', '=', buyer.id).orderBy('id').execute();
    expect(ports).toHaveLength(3);
    await t.ctx.db.updateTable('ports').set({ expires_at: new Date(Date.now() + 2 * 86_400_000) }).where('id', '=', ports[0]!.id).execute();
    await t.ctx.db.updateTable('ports').set({ status: 'expired', expires_at: new Date(Date.now() - 3_600_000) }).where('id', '=', ports[1]!.id).execute();
    // One port waits for a replacement; a free online modem goes into maintenance, another is retired, a third is offline.
    await t.ctx.db.insertInto('port_replacements').values({ port_id: ports[2]!.id, queued_since: new Date(), queued_reason: 'offline' }).execute();
    const used = ports.map((p) => p.modem_id);
    const free = await t.ctx.db.selectFrom('modems').select(['id', 'capacity']).where('online', '=', true).where('retired', '=', false)
      .where('maintenance_since', 'is', null).where('used_slots', '=', 0).where('id', 'not in', used).orderBy('imei').limit(3).execute();
    expect(free).toHaveLength(3);
    await t.ctx.db.updateTable('modems').set({ maintenance_since: new Date() }).where('id', '=', free[0]!.id).execute();
    await t.ctx.db.updateTable('modems').set({ retired: true }).where('id', '=', free[1]!.id).execute();
    await t.ctx.db.updateTable('modems').set({ online: false }).where('id', '=', free[2]!.id).execute();
    // A retired modem in maintenance is not counted as in maintenance.
    const retiredToo = await t.ctx.db.selectFrom('modems').select('id').where('retired', '=', false).where('maintenance_since', 'is', null)
      .where('id', 'not in', [...used, ...free.map((m) => m.id)]).orderBy('imei').limit(1).executeTakeFirstOrThrow();
    const retiredFree = await t.ctx.db.selectFrom('modems').select(['capacity', 'used_slots', 'online']).where('id', '=', retiredToo.id).executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('modems').set({ retired: true, maintenance_since: new Date() }).where('id', '=', retiredToo.id).execute();

    const after = await overview(new OverviewRepository(t.ctx.db), 30);
    expect(after.customers).toEqual({ total: 3, newInPeriod: 2 });
    expect(after.activePorts).toBe(2);
    expect(after.expiringThisWeek.count).toBe(1);
    expect(after.expiringThisWeek.items.map((p) => p.id)).toEqual([ports[0]!.id]);
    expect(after.replacements).toEqual({ queued: 1, maintenance: 1 });
    const lost = free.reduce((s, m) => s + m.capacity, 0) + (retiredFree.online ? retiredFree.capacity - retiredFree.used_slots : 0);
    expect(after.freeStock).toBe(stock - 3 - lost);
    // The purchase was paid from the balance: usage, not revenue.
    expect(after.totalRevenue).toBe('0');
    expect(after.balanceSpending.count).toBe(1);
  });

  it('keeps the answer a few seconds; a completed payment on the bus drops it, and a new period is its own answer', async () => {
    let now = Date.now();
    const cache = new OverviewCache(new OverviewRepository(t.ctx.db), t.ctx.bus, 5_000, () => now);
    const c = await createCustomer(t);
    const first = await cache.get(7);
    expect(first.customers.total).toBe(1);
    await createCustomer(t);
    // Within the age: the kept answer.
    now += 4_000;
    expect((await cache.get(7)).customers.total).toBe(1);
    // Another period is asked afresh.
    expect((await cache.get(30)).customers.total).toBe(2);
    // Past the age (decision 049): the kept answer at once, and a fresh one loaded behind it, answered next.
    now += 1_500;
    expect((await cache.get(7)).customers.total).toBe(1);
    await cache.refreshed(7);
    expect((await cache.get(7)).customers.total).toBe(2);
    // Past the stale limit (no ask for a minute): the caller waits for a fresh answer.
    await createCustomer(t);
    now += 60_001;
    expect((await cache.get(7)).customers.total).toBe(3);
    // A payment completes (announced on the bus): the next answer shows it at once.
    await t.ctx.db.insertInto('payments').values({
      id: randomUUID(), user_id: c.id, provider: 'card', kind: 'topup', status: 'completed', amount: 7_000_000n, description: 'Top-up', modem_count: 0,
    }).execute();
    expect((await cache.get(7)).totalRevenue).toBe('0');
    await t.ctx.bus.publish(PAYMENT_EVENTS.completed, { userId: c.id, payment: {} });
    expect((await cache.get(7)).totalRevenue).toBe('7000000');
  });

  it('the route answers through the cache, as the operator sees it', async () => {
    await createCustomer(t);
    const res = await call(t, admin.cookie, 'GET', '/api/v1/admin/overview');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ days: 30, customers: { total: 1, newInPeriod: 1 }, activePorts: 0 });
    expect(res.json().revenueByDay).toHaveLength(30);
  });
});
