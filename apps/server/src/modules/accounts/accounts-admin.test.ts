import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';

describe('admin customers', () => {
  let t: TestApp;
  let admin: Signed;
  beforeEach(async () => { t = await buildTestApp(); admin = await signedIn(t); });
  afterEach(async () => { await t.close(); });

  it('searches by e-mail, name and company, with balances and port counts', async () => {
    const c = await signedIn(t, 'customer', { email: 'findme@shop.example', name: 'Olga Petrova' });
    await t.ctx.db.updateTable('users').set({ company_name: 'Proxy Farm LLC' }).where('id', '=', c.id).execute();
    for (const q of ['FINDME', 'petrova', 'proxy farm']) {
      const res = await call(t, admin.cookie, 'GET', `/api/v1/admin/customers?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().items.map((i: { email: string }) => i.email)).toEqual(['findme@shop.example']);
    }
    const all = await call(t, admin.cookie, 'GET', '/api/v1/admin/customers?pageSize=1&page=2');
    expect(all.json()).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    const none = await call(t, admin.cookie, 'GET', `/api/v1/admin/customers?q=${encodeURIComponent('%_')}`);
    expect(none.json().items).toEqual([]);
  });

  it('deactivation ends every session at once; reactivation lets the customer sign in again', async () => {
    const c = await signedIn(t, 'customer');
    expect((await call(t, c.cookie, 'GET', '/api/v1/account')).statusCode).toBe(200); // session cached now
    const res = await call(t, admin.cookie, 'POST', `/api/v1/admin/customers/${c.id}/deactivate`, { reason: 'fraud report' });
    expect(res.statusCode).toBe(200);
    expect(res.json().customer.isActive).toBe(false);
    expect((await call(t, c.cookie, 'GET', '/api/v1/account')).statusCode).toBe(401);
    expect(await t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', c.id).execute()).toEqual([]);
    const [entry] = await auditOf(t, 'customer.deactivate');
    expect(entry).toMatchObject({ admin_id: admin.id, target_id: c.id, before: { isActive: true }, after: { isActive: false, reason: 'fraud report' } });

    const back = await call(t, admin.cookie, 'POST', `/api/v1/admin/customers/${c.id}/reactivate`, {});
    expect(back.json().customer.isActive).toBe(true);
    expect(await auditOf(t, 'customer.reactivate')).toHaveLength(1);
  });

  it('balance adjustments are ledger entries with unique references and never take the balance below zero', async () => {
    const c = await signedIn(t, 'customer');
    const url = `/api/v1/admin/customers/${c.id}/balance-adjustments`;
    const credit = await call(t, admin.cookie, 'POST', url, { coin: 'usdt', amount: '5000000', reason: 'goodwill credit' });
    expect(credit.statusCode).toBe(200);
    expect(credit.json()).toMatchObject({ balance: '5000000', entry: { amount: '5000000', kind: 'admin-adjustment', coin: 'usdt' } });
    const debit = await call(t, admin.cookie, 'POST', url, { coin: 'usdt', amount: '-2000000', reason: 'correction' });
    expect(debit.json()).toMatchObject({ balance: '3000000', entry: { amount: '-2000000' } });
    expect(debit.json().entry.reference).not.toBe(credit.json().entry.reference);

    const tooMuch = await call(t, admin.cookie, 'POST', url, { coin: 'usdt', amount: '-3000001', reason: 'too much' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('BALANCE_BELOW_ZERO');
    const btc = await call(t, admin.cookie, 'POST', url, { coin: 'btc', amount: '-1', reason: 'nothing there' });
    expect(btc.json().code).toBe('BALANCE_BELOW_ZERO');
    await expectLedgerMatchesBalances(t.ctx.db);
    const rows = await t.ctx.db.selectFrom('balances').select(['coin', 'amount']).where('user_id', '=', c.id).execute();
    expect(rows.map((r) => [r.coin, BigInt(r.amount)])).toEqual([['usdt', 3_000_000n]]);

    const audit = await auditOf(t, 'customer.balance-adjust');
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ before: { balance: '5000000' }, after: { balance: '3000000', amount: '-2000000', reason: 'correction' } });

    for (const bad of [{ coin: 'usdt', amount: '0', reason: 'zero' }, { coin: 'usdt', amount: '1.5', reason: 'float' },
      { coin: 'eur', amount: '1', reason: 'coin' }, { coin: 'usdt', amount: '1', reason: '' }, { coin: 'usdt', amount: 5, reason: 'number' }]) {
      expect((await call(t, admin.cookie, 'POST', url, bad)).statusCode).toBe(400);
    }
  });

  it('shows one customer with ports, payments, ledger, sessions and notifications; resets two-factor', async () => {
    const c = await signedIn(t, 'customer');
    await t.ctx.db.updateTable('users').set({ totp_secret: 'JBSWY3DPEHPK3PXP' }).where('id', '=', c.id).execute();
    const res = await call(t, admin.cookie, 'GET', `/api/v1/admin/customers/${c.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.customer).toMatchObject({ id: c.id, uses2fa: true, balances: { btc: '0', usdt: '0' } });
    expect(body.sessions).toHaveLength(1);
    expect(body.sessions[0].id).toHaveLength(12);
    expect(JSON.stringify(body)).not.toContain('JBSWY3DPEHPK3PXP');

    const reset = await call(t, admin.cookie, 'POST', `/api/v1/admin/customers/${c.id}/reset-2fa`);
    expect(reset.json().customer.uses2fa).toBe(false);
    const [entry] = await auditOf(t, 'customer.reset-2fa');
    expect(JSON.stringify({ before: entry!.before, after: entry!.after })).not.toContain('JBSWY3DPEHPK3PXP');
    expect((await call(t, admin.cookie, 'GET', '/api/v1/admin/customers/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('resends the confirmation e-mail to an unverified customer', async () => {
    const c = await signedIn(t, 'customer');
    await t.ctx.db.updateTable('users').set({ is_verified: false }).where('id', '=', c.id).execute();
    const res = await call(t, admin.cookie, 'POST', `/api/v1/admin/customers/${c.id}/resend-confirmation`);
    expect(res.statusCode).toBe(200);
    const mails = await t.ctx.db.selectFrom('mail_outbox').select('text').where('to_email', '=', c.email).execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('/api/v1/verify-email/');
    expect(await auditOf(t, 'customer.resend-confirmation')).toHaveLength(1);
  });
});
