import pg from 'pg';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { buildTestApp, describeOnPostgres, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, seedTestCatalog } from '../../../test/fixtures.js';
import { announced } from '../../../test/announcements.js';

// What a purchase costs in round trips to PostgreSQL (issue 31, item 3). On this machine the cost per statement, a
// socket write and a wake-up on both sides, is most of a purchase (bench/BENCHMARKS.md), so a statement added to the
// purchase's transaction must be a decision (decision 014 counts them), not an accident. Counted at the pg client,
// the one place every statement passes; PGlite has no round trips to count.
describeOnPostgres('round trips of a purchase', () => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
  beforeEach(async () => {
    t = await buildTestApp({ RATE_LIMIT_PAYMENTS_PER_MINUTE: '10000' });
    cat = await seedTestCatalog(t);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.close();
  });

  it('one dedicated port from the balance is one transaction of 6 statements, BEGIN and COMMIT included, its e-mail written in it, its invoice numbered by one statement after', async () => {
    const c = await createCustomer(t, 1000);
    const mailedAfterCommit = vi.spyOn(t.app.notificationEmails, 'send');
    const sent: Array<{ client: pg.Client; text: string }> = [];
    const query = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      sent.push({ client: this, text: (typeof first === 'string' ? first : first?.text ?? '').replace(/\s+/g, ' ').trim() });
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    expect(res.statusCode).toBe(200);
    // The purchase's connection: the one that wrote the payment. Its statements from the BEGIN before to the COMMIT after.
    const payment = sent.find((s) => /insert into "payments"/.test(s.text));
    expect(payment).toBeDefined();
    const own = sent.filter((s) => s.client === payment!.client).map((s) => s.text);
    const at = own.findIndex((s) => /insert into "payments"/.test(s));
    const begin = own.lastIndexOf('begin', at);
    const commit = own.indexOf('commit', at);
    expect(begin).toBeGreaterThanOrEqual(0);
    const transaction = own.slice(begin, commit + 1).map((s) => s.slice(0, 60));
    // 8 since 2026-12-07 (it was 11): the buyer's row comes back from the payment's statement, and the ports, their
    // jobs and links and the webhook event are written in the notification's statement. 6 since 2026-12-07 (later):
    // the carrier's name comes with the tariff, the dedicated modem is taken in the payment's statement, and the new
    // ports are listed for the answer by the notification's statement, which writes them.
    expect(transaction, transaction.join('\n')).toHaveLength(6);
    const full = own.slice(begin, commit + 1);
    expect(full.filter((s) => /insert into "payments"/.test(s) && /update "modems" set "used_slots"/.test(s))).toHaveLength(1);
    expect(full.filter((s) => /insert into "ports"/.test(s) && /from new_ports as "p"/.test(s))).toHaveLength(1);
    // The answer lists the port bought, as GET /api/v1/modems does.
    const bought = (res.json() as { data: { modems: Array<{ _id: string }> } }).data.modems;
    const listing = await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { cookie: c.cookie } });
    expect(bought).toHaveLength(1);
    expect(listing.json()).toEqual(bought);
    // The e-mail is written in the notification's statement (2026-12-07: it was two statements and two commits after
    // the purchase's, a claim and the outbox row), so nothing is left to do for it after the commit without SMTP.
    expect(own.slice(begin, commit + 1).filter((s) => /insert into "mail_outbox"/.test(s) && /insert into "notifications"/.test(s))).toHaveLength(1);
    // Positive marker: once the purchase's NOTIFY has been heard, an after-commit send would have started.
    await announced(t);
    expect(mailedAfterCommit).not.toHaveBeenCalled();
    const committed = sent.findIndex((s, i) => i > sent.indexOf(payment!) && s.client === payment!.client && s.text === 'commit');
    const after = sent.slice(committed + 1).map((s) => s.text);
    expect(after.filter((s) => /"notifications"|"mail_outbox"/.test(s)), after.join('\n')).toEqual([]);
    const [mail] = await t.ctx.db.selectFrom('mail_outbox').innerJoin('users', 'users.email', 'mail_outbox.to_email')
      .select(['mail_outbox.subject', 'mail_outbox.notification_id']).where('users.id', '=', c.id).execute();
    expect(mail).toMatchObject({ subject: 'Payment completed' });
    expect(mail!.notification_id).not.toBeNull();
    // Its invoice's number: one statement after the commit, no transaction of its own (2026-12-07: it was BEGIN, the
    // claim, the counter, the numbers, COMMIT; shared by the purchases of a batch, but one commit and five round trips).
    await t.ctx.invoiceNumbering.idle();
    const afterPurchase = sent.slice(committed + 1);
    const numbering = afterPurchase.filter((s) => /\binvoices\b/.test(s.text));
    expect(numbering.map((s) => s.text), afterPurchase.map((s) => s.text).join('\n')).toHaveLength(1);
    expect(numbering[0]!.text).toMatch(/^with pending as \( ?select .* from invoices where number is null .* for update skip locked ?\).* update invoices set number/);
    const numberer = afterPurchase.filter((s) => s.client === numbering[0]!.client).map((s) => s.text);
    const numbered = numberer.indexOf(numbering[0]!.text);
    expect(numberer[numbered - 1]).not.toBe('begin');
    expect(numberer[numbered + 1]).not.toBe('commit');
  });
});
