import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mailer, type MailMessage } from '../../integrations/mail/mailer.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer } from '../../../test/fixtures.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

// A notification whose caller knows the reader's address writes its e-mail in its own transaction (issue 31, item 3:
// a purchase's e-mail cost two more commits after the purchase's own); after the commit, with SMTP, one instance
// claims it and hands it over. Exactly once either way: the outbox row commits with the notification or not at all,
// a unique index keeps it to one per notification, and the hand-over is a conditional update.
let t: TestApp;
let service: NotificationsService;
beforeAll(async () => {
  t = await buildTestApp();
  service = new NotificationsService(new NotificationsRepository(t.ctx.db), t.ctx.config);
});
afterAll(async () => { await t.close(); });

async function reader() {
  const c = await createCustomer(t);
  const user = await t.ctx.db.selectFrom('users').select(['id', 'email', 'name', 'language', 'marketing_consent', 'is_active'])
    .where('id', '=', c.id).executeTakeFirstOrThrow();
  return user;
}
const outboxOf = (to: string) => t.ctx.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', to).execute();
const notificationsOf = (userId: string) => t.ctx.db.selectFrom('notifications').select(['id', 'email']).where('user_id', '=', userId).execute();

/** A transport that records what it was handed and tells when it has been handed `n` messages to `to`. */
function recordingTransport() {
  const sent: MailMessage[] = [];
  const waiters: Array<() => void> = [];
  const count = (to: string) => sent.filter((m) => m.to === to).length;
  return {
    sentTo: (to: string) => sent.filter((m) => m.to === to),
    handed: (to: string, n: number) => new Promise<void>((resolve) => {
      const check = () => { if (count(to) >= n) resolve(); };
      waiters.push(check);
      check();
    }),
    transport: {
      async send(_from: string, m: MailMessage) {
        sent.push(m);
        for (const check of waiters) check();
      },
    },
  };
}

describe('e-mails written with their notification', () => {
  it('commit with the notification (marked sent, one outbox row naming it) and vanish with its rollback', async () => {
    const user = await reader();
    await expect(t.ctx.db.transaction().execute(async (tx) => {
      await service.notify(user.id, 'payment', 'purchase_completed', { amount: '1.00', description: 'x' }, tx, user);
      throw new Error('the purchase failed');
    })).rejects.toThrow('the purchase failed');
    expect(await outboxOf(user.email)).toHaveLength(0);
    expect(await notificationsOf(user.id)).toHaveLength(0);

    await t.ctx.db.transaction().execute((tx) => service.notify(user.id, 'payment', 'purchase_completed', { amount: '1.00', description: 'x' }, tx, user));
    const [note] = await notificationsOf(user.id);
    expect(note).toMatchObject({ email: 'sent' });
    const mails = await outboxOf(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ notification_id: note!.id, subject: 'Payment completed', handed_at: null, sent_at: null });
    expect(mails[0]!.text).toContain('Test Customer');
    // Nothing left pending for the after-commit path, so no instance mails it again.
    expect(await t.app.notificationEmails.sweep(0)).toBe(0);
    expect(await outboxOf(user.email)).toHaveLength(1);
  });

  it('are not written for news without consent, nor for an inactive reader', async () => {
    const user = await reader();
    await t.ctx.db.transaction().execute((tx) => service.notify(user.id, 'other', 'operator_message', { text: { en: 'News' } }, tx, user));
    await t.ctx.db.transaction().execute((tx) => service.notify(user.id, 'other', 'port_expired', { name: 'P1', graceDays: 3 }, tx, { ...user, is_active: false }));
    expect(await outboxOf(user.email)).toHaveLength(0);
    expect((await notificationsOf(user.id)).map((n) => n.email)).toEqual([null, null]);
  });

  it('are handed to SMTP once, by whichever claim comes first, and a missed one by the sweep', async () => {
    const user = await reader();
    const smtp = recordingTransport();
    const mailer = new Mailer(t.ctx.db, 'shop@test.local', smtp.transport, t.app.log);
    await t.ctx.db.transaction().execute((tx) => service.notify(user.id, 'other', 'port_expired', { name: 'P1', graceDays: 3 }, tx, user));
    const [first] = await notificationsOf(user.id);
    const claims = await Promise.all([mailer.handNotificationMail(first!.id), mailer.handNotificationMail(first!.id)]);
    expect(claims.sort()).toEqual([false, true]);
    await smtp.handed(user.email, 1);
    // Its NOTIFY missed (nobody claimed it): the sweep hands it over, once (with the earlier tests' unclaimed ones).
    await t.ctx.db.transaction().execute((tx) => service.notify(user.id, 'other', 'port_released', { name: 'P1' }, tx, user));
    expect(await mailer.handMissedNotificationMails(0)).toBeGreaterThanOrEqual(1);
    expect(await mailer.handMissedNotificationMails(0)).toBe(0);
    await smtp.handed(user.email, 2);
    expect(smtp.sentTo(user.email).map((m) => m.subject)).toEqual(['Your port has expired', 'Your port has expired']);
    const handed = await outboxOf(user.email);
    expect(handed.every((m) => m.handed_at !== null)).toBe(true);
    // Without SMTP the outbox is the mailbox: nothing claimed, no statement.
    const noSmtp = new Mailer(t.ctx.db, 'shop@test.local', null, t.app.log);
    expect(await noSmtp.handNotificationMail(first!.id)).toBe(false);
  });
});
