import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';
import { createCustomer, seedTestCatalog } from './fixtures.js';
import { call, signedIn, type Signed } from './console-helpers.js';
import { paging } from '../src/lib/console-http.js';
import { AdminPaymentsRepository } from '../src/modules/payments/index.js';
import { CustomersRepository } from '../src/modules/accounts/index.js';
import { ModemsRepository } from '../src/modules/hosts/index.js';
import { AuditLog, AuditRepository } from '../src/modules/audit/index.js';

// The console's list totals are counted up to a cap (lib/console-lists.repository.ts cappedTotal, decision 029): past it the answer is
// the cap with totalCapped, under it the exact count. The cap is 10,000 in the app; here it is made small.
describe('console list totals are capped', () => {
  let t: TestApp;
  let admin: Signed;
  beforeEach(async () => { t = await buildTestApp(); admin = await signedIn(t); });
  afterEach(async () => { await t.close(); });

  async function payments(userId: string, n: number, provider = 'paypal') {
    for (let i = 0; i < n; i++) {
      await t.ctx.db.insertInto('payments').values({
        id: randomUUID(), user_id: userId, provider, kind: 'topup', status: 'completed', amount: 1_000_000n,
        description: 'Top-up', modem_count: 0, created_at: new Date(Date.now() - i * 60_000),
      }).execute();
    }
  }

  it('payments: 5 with a cap of 3 answer total 3 with the flag, and the page still lists what it holds', async () => {
    const c = await createCustomer(t);
    await payments(c.id, 5);
    const capped = await new AdminPaymentsRepository(t.ctx.db, 3).search({}, paging({ pageSize: 4 }));
    expect({ total: capped.total, totalCapped: capped.totalCapped, listed: capped.items.length }).toEqual({ total: 3, totalCapped: true, listed: 4 });
    // A page past the cap still lists its rows.
    const second = await new AdminPaymentsRepository(t.ctx.db, 3).search({}, paging({ page: 2, pageSize: 4 }));
    expect({ total: second.total, totalCapped: second.totalCapped, listed: second.items.length }).toEqual({ total: 3, totalCapped: true, listed: 1 });
    // Exactly the cap, and under it: the exact count, no flag.
    const atCap = await new AdminPaymentsRepository(t.ctx.db, 5).search({}, paging({}));
    expect({ total: atCap.total, totalCapped: atCap.totalCapped }).toEqual({ total: 5, totalCapped: false });
    const under = await new AdminPaymentsRepository(t.ctx.db, 10).search({}, paging({}));
    expect({ total: under.total, totalCapped: under.totalCapped, listed: under.items.length }).toEqual({ total: 5, totalCapped: false, listed: 5 });
  });

  it('payments: the cap counts what the filter matches, not the whole table', async () => {
    const c = await createCustomer(t);
    await payments(c.id, 4, 'paypal');
    await payments(c.id, 2, 'card');
    const repo = new AdminPaymentsRepository(t.ctx.db, 3);
    const card = await repo.search({ provider: 'card' }, paging({}));
    expect({ total: card.total, totalCapped: card.totalCapped }).toEqual({ total: 2, totalCapped: false });
    const paypal = await repo.search({ provider: 'paypal' }, paging({}));
    expect({ total: paypal.total, totalCapped: paypal.totalCapped }).toEqual({ total: 3, totalCapped: true });
  });

  it('the route answers the exact total and totalCapped: false under the app\'s cap', async () => {
    const c = await createCustomer(t);
    await payments(c.id, 3);
    const res = await call(t, admin.cookie, 'GET', '/api/v1/admin/payments?pageSize=2');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 3, totalCapped: false, page: 1, pageSize: 2 });
    expect(res.json().items).toHaveLength(2);
  });

  it('customers, modems and the audit log use the same capped total', async () => {
    for (let i = 0; i < 4; i++) await createCustomer(t);
    // The operator signed in too: 5 users in all.
    const customers = await new CustomersRepository(t.ctx.db, 3).search(undefined, paging({}));
    expect({ total: customers.total, totalCapped: customers.totalCapped }).toEqual({ total: 3, totalCapped: true });
    const few = await new CustomersRepository(t.ctx.db, 3).search('no-such-customer', paging({}));
    expect({ total: few.total, totalCapped: few.totalCapped }).toEqual({ total: 0, totalCapped: false });

    await seedTestCatalog(t); // 45 modems
    const modemList = await new ModemsRepository(t.ctx.db, 10).search({}, paging({ pageSize: 20 }));
    expect({ total: modemList.total, totalCapped: modemList.totalCapped, listed: modemList.items.length }).toEqual({ total: 10, totalCapped: true, listed: 20 });
    const allModems = await new ModemsRepository(t.ctx.db, 100).search({}, paging({}));
    expect({ total: allModems.total, totalCapped: allModems.totalCapped }).toEqual({ total: 45, totalCapped: false });

    const audit = new AuditLog(new AuditRepository(t.ctx.db, 2));
    await t.ctx.db.transaction().execute(async (tx) => {
      for (let i = 0; i < 3; i++) {
        await audit.record(tx, { adminId: admin.id, ip: '127.0.0.1' }, { action: 'test.capped', targetType: 'test', targetId: String(i), before: null, after: null });
      }
    });
    const log = await audit.search({ action: 'test.capped' });
    expect({ total: log.total, totalCapped: log.totalCapped, listed: log.items.length }).toEqual({ total: 2, totalCapped: true, listed: 3 });
  });
});
