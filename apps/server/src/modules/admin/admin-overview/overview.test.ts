import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { createCustomer } from '../../purchases/test-fixtures.js';
import { call, signedIn, type Signed } from '../admin.test-helpers.js';

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
    const ov = (await call(t, admin.cookie, 'GET', '/api/v1/admin/overview?days=1')).json();
    expect(ov.revenueByMethod).toEqual([{ provider: 'paypal', amount: '0', count: 0 }]);
    expect(ov.revenueByDay).toEqual([{ date: new Date().toISOString().slice(0, 10), amount: '0', count: 0 }]);
  });
});
