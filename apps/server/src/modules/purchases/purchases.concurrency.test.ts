import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeOnPostgres, type TestApp } from '../../../test/helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, leaveFreeDedicated, seedTestCatalog, usdtBalance } from '../../../test/fixtures.js';

// Contention needs real connections: PGlite has one. CI sets TEST_DATABASE_URL.
describeOnPostgres('concurrent purchases', () => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
  beforeEach(async () => {
    t = await buildTestApp({ RATE_LIMIT_PAYMENTS_PER_MINUTE: '10000' });
    cat = await seedTestCatalog(t);
  });
  afterEach(async () => {
    await expectLedgerMatchesBalances(t.ctx.db);
    await t.close();
  });
  const buy = (cookie: string, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1, ...overrides,
    }, headers) });

  it('50 buyers of the last free dedicated modem: exactly one succeeds, 49 get OUT_OF_STOCK', async () => {
    await leaveFreeDedicated(t, cat.usId, 1);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => createCustomer(t, 100)));
    const results = await Promise.all(buyers.map((b) => buy(b.cookie)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(49);
    for (const r of refused) expect(r.json().code).toBe('OUT_OF_STOCK');
    const ports = await t.ctx.db.selectFrom('ports').selectAll().execute();
    expect(ports).toHaveLength(1);
    let charged = 0;
    for (const b of buyers) if ((await usdtBalance(t, b.id)) === 35_000_000n) charged++;
    expect(charged).toBe(1);
  });

  it('200 concurrent purchases that together exceed the balance never take it below zero', async () => {
    const c = await createCustomer(t, 200); // $65 a port: three fit, the rest must be refused
    const results = await Promise.all(Array.from({ length: 200 }, () => buy(c.cookie)));
    const ok = results.filter((r) => r.statusCode === 200).length;
    const codes = results.filter((r) => r.statusCode !== 200).map((r) => r.json().code as string);
    expect([...new Set(codes)], JSON.stringify(results.find((r) => r.statusCode >= 500)?.json())).toEqual(['INSUFFICIENT_FUNDS']);
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 402 || r.statusCode === 409)).toBe(true);
    expect(ok).toBe(3);
    expect(await usdtBalance(t, c.id)).toBe(200_000_000n - 3n * 65_000_000n);
    const ports = await t.ctx.db.selectFrom('ports').select('default_number').where('user_id', '=', c.id).execute();
    // Each purchase counts the ports of those that waited on the balance before it: Proxy 1, 2 and 3, none twice.
    expect(ports.map((p) => p.default_number).sort()).toEqual([1, 2, 3]);
  });

  it('concurrent redemptions respect the coupon total limit', async () => {
    await t.ctx.db.insertInto('coupons').values({ name: 'FIRST5', type: 'percent', percent: 10, max_uses: 5, max_uses_per_user: null,
      amount: null, valid_from: null, valid_until: null, tariff_id: null, country_id: null }).execute();
    const buyers = await Promise.all(Array.from({ length: 20 }, () => createCustomer(t, 100)));
    const results = await Promise.all(buyers.map((b) => buy(b.cookie, { coupon: 'first5' })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
    for (const r of results.filter((x) => x.statusCode !== 200)) expect(r.json().code).toBe('COUPON_USED_UP');
    const coupon = await t.ctx.db.selectFrom('coupons').select('used_count').where('name', '=', 'FIRST5').executeTakeFirstOrThrow();
    expect(coupon.used_count).toBe(5);
    const paid = results.filter((r) => r.statusCode === 200).map((r) => r.json().data.payment);
    for (const p of paid) expect(p).toMatchObject({ amount: '58500000', discount: '6500000', coupon: 'FIRST5' });
  });

  it('the same Idempotency-Key sent twice at once makes one purchase and both get the same answer', async () => {
    const c = await createCustomer(t, 1000);
    const [a, b] = await Promise.all([buy(c.cookie, {}, { 'idempotency-key': 'same' }), buy(c.cookie, {}, { 'idempotency-key': 'same' })]);
    expect(a!.statusCode).toBe(200);
    expect(b!.statusCode).toBe(200);
    expect(a!.json()).toEqual(b!.json());
    expect(await t.ctx.db.selectFrom('payments').select('id').execute()).toHaveLength(1);
    expect(await usdtBalance(t, c.id)).toBe(935_000_000n);
  });

  it('ten trial purchases by one customer at once, on two tariffs: one trial, nine TRIAL_USED, one charge (issue 27, item 8)', async () => {
    await t.ctx.db.updateTable('tariffs').set({ trial_hours: 1, trial_price: 1_000_000n })
      .where('id', 'in', [cat.dedicatedMonth.id, cat.dedicatedWeek.id]).execute();
    const c = await createCustomer(t, 100);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      buy(c.cookie, { trial: true, tariff_id: i % 2 ? cat.dedicatedWeek.id : cat.dedicatedMonth.id })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused.map((r) => r.json().code)).toEqual(Array(9).fill('TRIAL_USED'));
    expect(await t.ctx.db.selectFrom('ports').select('id').where('user_id', '=', c.id).execute()).toHaveLength(1);
    expect(await t.ctx.db.selectFrom('trial_uses').select('user_id').where('user_id', '=', c.id).execute()).toHaveLength(1);
    expect(await usdtBalance(t, c.id)).toBe(99_000_000n);
  });
});
