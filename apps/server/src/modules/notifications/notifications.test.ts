import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, json, type Customer } from '../../../test/fixtures.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';
import { buildCountingApp, type CountingApp } from './test-support.js';

let t: CountingApp;
let alice: Customer;
let bob: Customer;
let service: NotificationsService;

beforeAll(async () => {
  t = await buildCountingApp();
  alice = await createCustomer(t, 0, 'ru');
  bob = await createCustomer(t);
  service = new NotificationsService(new NotificationsRepository(t.ctx.db));
});
afterAll(async () => { await t.close(); });

const get = (url: string, c: Customer, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, ...json(c.cookie, undefined, headers) });
/**
 * The in-memory version once every bump committed so far has been heard (the NOTIFY arrives after the commit,
 * asynchronously; t.settled() waits for a sentinel NOTIFY sent after it) and the e-mails it started have left, so
 * that queries counted afterwards are the test's own.
 */
async function versionNow(c: Customer): Promise<number> {
  await t.settled();
  return t.ctx.pollVersions.current('notifications', c.id);
}

describe('notifications', () => {
  it('lists newest first in the customer language with an ETag, and an unchanged poll answers 304 without the database', async () => {
    const empty = await get('/api/v1/notifications', alice);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ version: 0, data: [] });
    expect(empty.headers.etag).toBe('"n0"');

    await service.notify(alice.id, 'payment', 'purchase_completed', { amount: '2.50', description: 'US x1' });
    await service.notify(alice.id, 'other', 'port_expired', { name: 'Port A', graceDays: 3 });
    const v = await versionNow(alice);
    expect(v).toBe(2);
    const res = await get('/api/v1/notifications', alice, { 'if-none-match': '"n0"' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe('"n2"');
    const body = res.json();
    expect(body.version).toBe(2);
    expect(body.data.map((n: { type: string }) => n.type)).toEqual(['other', 'payment']);
    expect(body.data[0]).toMatchObject({ unread: true, text: 'Срок действия Port A истёк. Продлите его в течение 3 дн., чтобы сохранить тот же модем.' });
    expect(new Date(body.data[0].timestamp).toISOString()).toBe(body.data[0].timestamp);

    const before = t.queries.count;
    for (let i = 0; i < 20; i++) {
      const poll = await get('/api/v1/notifications', alice, { 'if-none-match': '"n2"' });
      expect(poll.statusCode).toBe(304);
      expect(poll.body).toBe('');
    }
    expect(t.queries.count - before).toBe(0);
    // A weak validator or a list naming the tag matches too.
    expect((await get('/api/v1/notifications', alice, { 'if-none-match': 'W/"n1", W/"n2"' })).statusCode).toBe(304);
  });

  it('marks one read (bumping the version), 404 for another customer, 400 for a malformed id', async () => {
    const list = (await get('/api/v1/notifications', alice)).json();
    const id = list.data[0]._id as string;
    expect((await get(`/api/v1/notifications/${id}`, bob)).statusCode).toBe(404);
    expect((await get(`/api/v1/notifications/not-a-uuid`, alice)).statusCode).toBe(400);
    const read = await get(`/api/v1/notifications/${id}`, alice);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ _id: id, unread: false });
    const v = await versionNow(alice);
    expect(v).toBeGreaterThan(list.version);
    const poll = await get('/api/v1/notifications', alice, { 'if-none-match': `"n${list.version}"` });
    expect(poll.statusCode).toBe(200);
    expect(poll.json().version).toBe(v);
    // Reading it again changes nothing and keeps the version.
    await get(`/api/v1/notifications/${id}`, alice);
    expect((await get('/api/v1/notifications', alice, { 'if-none-match': `"n${v}"` })).statusCode).toBe(304);
  });

  it('bob sees none of alice\'s notifications; read-all touches only the caller', async () => {
    const bobs = (await get('/api/v1/notifications', bob)).json();
    expect(bobs.data).toEqual([]);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/notifications/read-all', ...json(bob.cookie) });
    expect(res.json()).toEqual({ success: true });
    expect((await get('/api/v1/notifications', alice)).json().data.some((n: { unread: boolean }) => n.unread)).toBe(true);
    const before = (await get('/api/v1/notifications', alice)).json().version;
    await t.app.inject({ method: 'POST', url: '/api/v1/notifications/read-all', ...json(alice.cookie) });
    expect(await versionNow(alice)).toBeGreaterThan(before);
    expect((await get('/api/v1/notifications', alice)).json().data.every((n: { unread: boolean }) => !n.unread)).toBe(true);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/notifications' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/notifications/read-all', headers: { origin: 'http://localhost:3000' } })).statusCode).toBe(401);
  });

  it('a notification in a rolled-back transaction is never shown and the version does not move', async () => {
    const before = await t.ctx.pollVersions.current('notifications', bob.id);
    await expect(t.ctx.db.transaction().execute(async (tx) => {
      await service.notify(bob.id, 'other', 'port_released', { name: 'X' }, tx);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    // A committed bump would have been heard before the sentinel: none was.
    expect(await versionNow(bob)).toBe(before);
    expect((await get('/api/v1/notifications', bob)).json().data).toEqual([]);
  });

  it('operator messages reach the chosen customers (or everyone) in their language', async () => {
    const n = await service.sendOperatorMessage([alice.id, bob.id], { en: 'Maintenance tonight', ru: 'Сегодня ночью техработы' });
    expect(n).toBe(2);
    expect((await get('/api/v1/notifications', alice)).json().data[0].text).toBe('Сегодня ночью техработы');
    expect((await get('/api/v1/notifications', bob)).json().data[0]).toMatchObject({ text: 'Maintenance tonight', type: 'other' });
    const all = await service.sendOperatorMessage('all', { en: 'Hello everyone' });
    expect(all).toBeGreaterThanOrEqual(2);
    expect((await get('/api/v1/notifications', bob)).json().data[0].text).toBe('Hello everyone');
    await expect(service.sendOperatorMessage('all', { en: '  ' })).rejects.toThrow();
  });
});

describe('notification e-mails', () => {
  const outbox = (to: string) => t.ctx.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', to).orderBy('created_at').execute();
  /**
   * The outbox once every notification committed so far has been heard and its e-mail send has finished (an e-mail
   * leaves after the commit on its own, started by the bump's NOTIFY; buildCountingApp watches the sends).
   */
  async function mailsNow(to: string) {
    await t.settled();
    return outbox(to);
  }
  const emailOf = async (c: Customer) => (await t.ctx.db.selectFrom('users').select('email').where('id', '=', c.id).executeTakeFirstOrThrow()).email;

  it('mails service messages always, without an unsubscribe link; news only with consent and an unsubscribe link that turns it off', async () => {
    const carol = await createCustomer(t, 0, 'cn');
    const to = await emailOf(carol);
    // Payments, expiry and the port's service are service mail (issue 28, item 10): no consent asked, no footer.
    await service.notify(carol.id, 'payment', 'purchase_completed', { amount: '1.00', description: 'x' });
    await service.notify(carol.id, 'other', 'expiry_reminder_1d', { name: 'P1', date: '2030-01-01' });
    // An IP change that failed is told in the bell only; an operator's message is news: nothing mailed without consent.
    await service.notify(carol.id, 'other', 'rotation_failed', { name: 'P1' });
    await service.sendOperatorMessage([carol.id], { en: 'Our new tariffs' });
    let mails = await mailsNow(to);
    expect(mails.map((m) => m.subject)).toEqual(['付款已完成', '您的端口即将到期']);
    expect(mails[1]!.text).toContain('P1 将在明天（2030-01-01）到期');
    for (const m of mails) expect(m.text + m.html).not.toMatch(/unsubscribe|退订/);

    await t.ctx.db.updateTable('users').set({ marketing_consent: true }).where('id', '=', carol.id).execute();
    await service.sendOperatorMessage([carol.id], { en: 'Our new tariffs' });
    await service.notify(carol.id, 'other', 'rotation_failed', { name: 'P1' });
    mails = await mailsNow(to);
    expect(mails).toHaveLength(3);
    const link = /\/api\/v1\/unsubscribe\/[^\s"<]+/.exec(mails[2]!.text)?.[0];
    expect(link).toBeTruthy();
    expect(mails[2]!.html).toContain('退订此类邮件');
    // Sent once: another sweep or a second claim sends nothing.
    expect(await t.app.notificationEmails.sweep(0)).toBe(0);

    const page = await t.app.inject({ method: 'GET', url: link! });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('您已成功退订');
    const user = await t.ctx.db.selectFrom('users').select('marketing_consent').where('id', '=', carol.id).executeTakeFirstOrThrow();
    expect(user.marketing_consent).toBe(false);
    await service.sendOperatorMessage([carol.id], { en: 'More news' });
    expect(await mailsNow(to)).toHaveLength(3);
    expect(await t.app.notificationEmails.sweep(0)).toBe(0);

    const forged = await t.app.inject({ method: 'GET', url: `${link!.slice(0, -3)}abc` });
    expect(forged.statusCode).toBe(404);
    expect(forged.body).toContain('This link does not work');
  });

  it('the e-mail leaves by itself after the commit (no sweep)', async () => {
    const dave = await createCustomer(t);
    await service.notify(dave.id, 'other', 'port_expired', { name: 'P9', graceDays: 3 });
    const to = await emailOf(dave);
    const mails = await mailsNow(to);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Your port has expired');
  });
});
