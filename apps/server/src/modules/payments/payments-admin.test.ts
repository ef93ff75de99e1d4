import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, itOnPostgres, type TestApp } from '../../../test/helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, credit, json, seedTestCatalog, usdtBalance } from '../../../test/fixtures.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';


describe('admin coupons and payments', () => {
  let t: TestApp;
  let admin: Signed;
  beforeEach(async () => { t = await buildTestApp(); admin = await signedIn(t); });
  afterEach(async () => { await t.close(); });

  async function buyWithCoupon() {
    const cat = await seedTestCatalog(t);
    const coupon = await call(t, admin.cookie, 'POST', '/api/v1/admin/coupons', {
      name: 'SPRING10', type: 'percent', percent: 10, maxUses: 5, maxUsesPerUser: 1, countryId: cat.usId,
      validFrom: new Date(Date.now() - 60_000).toISOString(), validUntil: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(coupon.statusCode).toBe(200);
    const c = await createCustomer(t, 100);
    const buy = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1, coupon: 'spring10',
    }) });
    expect(buy.statusCode).toBe(200);
    const payment = await t.ctx.db.selectFrom('payments').selectAll().where('user_id', '=', c.id).executeTakeFirstOrThrow();
    return { cat, coupon: coupon.json().coupon, customer: c, payment };
  }

  it('creates a coupon with limits, shows who used it, refuses an invalid one and deleting a used one', async () => {
    const { coupon, customer, payment } = await buyWithCoupon();
    expect(coupon).toMatchObject({ name: 'SPRING10', type: 'percent', percent: 10, amount: null, maxUses: 5, maxUsesPerUser: 1 });
    const used = (await call(t, admin.cookie, 'GET', `/api/v1/admin/coupons/${coupon.id}/redemptions`)).json();
    expect(used.coupon.usedCount).toBe(1);
    expect(used.items).toMatchObject([{ userId: customer.id, paymentId: payment.id, paymentAmount: String(payment.amount), discount: String(payment.discount) }]);
    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/coupons/${coupon.id}`)).json().code).toBe('IN_USE');
    const backwards = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/coupons/${coupon.id}`, { validUntil: new Date(Date.now() - 120_000).toISOString() });
    expect(backwards.statusCode).toBe(422); // the end would be before the start
    const ended = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/coupons/${coupon.id}`, { validUntil: new Date(Date.now() - 1000).toISOString() });
    expect(ended.statusCode).toBe(200);
    const [update] = await auditOf(t, 'coupon.update');
    expect(update!.before).toMatchObject({ valid_until: coupon.validUntil });
    expect((update!.after as { valid_until: string }).valid_until).not.toBe(coupon.validUntil);
    const bad = await call(t, admin.cookie, 'POST', '/api/v1/admin/coupons', { name: 'FIXED', type: 'fixed', percent: 10 });
    expect(bad.json().code).toBe('COUPON_INVALID');
    const fixed = await call(t, admin.cookie, 'POST', '/api/v1/admin/coupons', { name: 'FIXED', type: 'fixed', amount: '5000000' });
    expect(fixed.json().coupon).toMatchObject({ type: 'fixed', amount: '5000000', percent: null });
    expect((await call(t, admin.cookie, 'POST', '/api/v1/admin/coupons', { name: 'fixed', type: 'fixed', amount: '1' })).json().code).toBe('ALREADY_EXISTS');
    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/coupons/${fixed.json().coupon.id}`)).statusCode).toBe(200);
    expect((await auditOf(t, 'coupon.create')).map((e) => e.target_id)).toEqual([coupon.id, fixed.json().coupon.id]);
  });

  it('searches payments by the customer e-mail, the description, the coupon and the id, each alone', async () => {
    const { cat, customer, payment } = await buyWithCoupon();
    const other = await createCustomer(t, 100);
    const buy = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(other.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(buy.statusCode).toBe(200);
    const search = async (q: string) => {
      const res = (await call(t, admin.cookie, 'GET', `/api/v1/admin/payments?q=${encodeURIComponent(q)}`)).json();
      expect(res.total).toBe(res.items.length);
      return res.items.map((p: { id: string }) => p.id);
    };
    expect(await search(customer.id.slice(0, 13).toUpperCase())).toEqual([payment.id]); // in the e-mail
    expect(await search('Spring')).toEqual([payment.id]); // the coupon; the other payment has none
    expect(await search(payment.id)).toEqual([payment.id]);
    expect(await search(payment.description.slice(2, 12))).toHaveLength(2);
    expect(await search('%_')).toEqual([]);
  });

  it('lists payments across providers; refunds a balance purchase to the balance once, as a ledger entry', async () => {
    const { customer, payment } = await buyWithCoupon();
    const list = (await call(t, admin.cookie, 'GET', `/api/v1/admin/payments?provider=balance&q=${encodeURIComponent(customer.id.slice(0, 8))}`)).json();
    expect(list.items.map((p: { id: string }) => p.id)).toEqual([payment.id]);
    expect(list.items[0]).toMatchObject({ coupon: 'SPRING10', status: 'completed', refunded: '0' });
    const before = await usdtBalance(t, customer.id);

    const res = await call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${payment.id}/refund`, { reason: 'modem was down for days' });
    expect(res.statusCode).toBe(200);
    expect(res.json().refund).toMatchObject({ method: 'balance', amount: String(payment.amount), adminId: admin.id });
    expect(res.json().payment.refunded).toBe(String(payment.amount));
    expect(await usdtBalance(t, customer.id)).toBe(before + BigInt(payment.amount));
    const again = await call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${payment.id}/refund`, { reason: 'twice' });
    expect(again.json().code).toBe('REFUND_EXISTS');
    const entries = await t.ctx.db.selectFrom('ledger_entries').selectAll().where('reference', '=', `refund:${payment.id}`).execute();
    expect(entries).toHaveLength(1);
    await expectLedgerMatchesBalances(t.ctx.db);
    const [audit] = await auditOf(t, 'payment.refund');
    expect(audit).toMatchObject({ target_id: payment.id, before: { refunded: '0' }, after: { refunded: String(payment.amount), method: 'balance' } });
    const detail = (await call(t, admin.cookie, 'GET', `/api/v1/admin/payments/${payment.id}`)).json();
    expect(detail.refunds).toHaveLength(1);
    // The purchase's debit (by payment_id) and the refund (by its reference), and no other customer's entries.
    expect(detail.ledger.map((e: { reference: string }) => e.reference)).toEqual([`payment:${payment.id}`, `refund:${payment.id}`]);
    expect(detail.ports).toHaveLength(1);
  });

  it('refunds a PayPal top-up to its source as a manual refund, never below zero', async () => {
    const c = await createCustomer(t);
    const topUp = async (micro: bigint) => {
      const id = randomUUID();
      await t.ctx.db.insertInto('payments').values({
        id, user_id: c.id, provider: 'paypal', kind: 'topup', status: 'completed', amount: micro, description: 'Top-up', modem_count: 0,
      }).execute();
      await t.ctx.db.transaction().execute((tx) => tx.insertInto('ledger_entries').values({
        user_id: c.id, coin: 'usdt', amount: micro, kind: 'paypal', reference: `paypal:${id}`, payment_id: id,
      }).execute().then(() => tx.insertInto('balances').values({ user_id: c.id, coin: 'usdt', amount: micro })
        .onConflict((oc) => oc.columns(['user_id', 'coin']).doUpdateSet((eb) => ({ amount: eb('balances.amount', '+', eb.ref('excluded.amount')) }))).execute()));
      return id;
    };
    const first = await topUp(20_000_000n);
    const res = await call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${first}/refund`, { amount: '5000000', reason: 'partial refund asked' });
    expect(res.statusCode).toBe(200);
    expect(res.json().refund).toMatchObject({ method: 'manual', amount: '5000000' });
    expect(await usdtBalance(t, c.id)).toBe(15_000_000n);

    const second = await topUp(10_000_000n);
    // The customer spends most of it: the top-up can no longer be sent back in full.
    await t.ctx.db.transaction().execute(async (tx) => {
      await tx.updateTable('balances').set({ amount: 1_000_000n }).where('user_id', '=', c.id).execute();
      await tx.insertInto('ledger_entries').values({ user_id: c.id, coin: 'usdt', amount: -24_000_000n, kind: 'purchase', reference: `spend:${second}` }).execute();
    });
    const refused = await call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${second}/refund`, { reason: 'wants it back' });
    expect(refused.json().code).toBe('REFUND_EXCEEDS_BALANCE');
    expect(await t.ctx.db.selectFrom('payment_refunds').select('id').where('payment_id', '=', second).execute()).toEqual([]);
    expect((await call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${second}/refund`, { amount: '10000001', reason: 'too much', to: 'balance' })).json().code)
      .toBe('REFUND_TOO_LARGE');
    await expectLedgerMatchesBalances(t.ctx.db);
  });

  itOnPostgres('two concurrent refunds of one payment book one ledger entry', async () => {
    const { payment, customer } = await buyWithCoupon();
    const before = await usdtBalance(t, customer.id);
    const results = await Promise.all(Array.from({ length: 5 }, () =>
      call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${payment.id}/refund`, { reason: 'concurrent refund' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await t.ctx.db.selectFrom('ledger_entries').select('id').where('reference', '=', `refund:${payment.id}`).execute()).toHaveLength(1);
    expect(await usdtBalance(t, customer.id)).toBe(before + BigInt(payment.amount));
    expect(await auditOf(t, 'payment.refund')).toHaveLength(1);
    await expectLedgerMatchesBalances(t.ctx.db);
  });

  it('completes a stuck pending payment by hand through the payments fulfilment, once', async () => {
    const c = await createCustomer(t);
    await credit(t, c.id, 1n); // an existing balance the completion must not disturb
    const order = await t.ctx.db.insertInto('payment_orders').values({
      user_id: c.id, provider: 'paypal', kind: 'topup', details: JSON.stringify({
        tariff_id: null, country_id: null, carrier_id: null, region_id: null, isShared: null, rotationInterval: null, modemCount: null, basket: null, coupon: null,
      }), amount: 25_000_000n, provider_amount: 2500n, description: 'Top-up',
    }).returning('id').executeTakeFirstOrThrow();
    const res = await call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${order.id}/complete`, { reason: 'PayPal shows it paid; IPN lost' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payment).toMatchObject({ id: order.id, status: 'completed', kind: 'topup', provider: 'paypal' });
    expect(await usdtBalance(t, c.id)).toBe(25_000_001n);
    const again = await call(t, admin.cookie, 'POST', `/api/v1/admin/payments/${order.id}/complete`, { reason: 'again' });
    expect(again.json().code).toBe('PAYMENT_NOT_STUCK');
    expect(await usdtBalance(t, c.id)).toBe(25_000_001n);
    expect(await auditOf(t, 'payment.complete')).toHaveLength(1);
    await expectLedgerMatchesBalances(t.ctx.db);
  });
});
