import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationsRepository, NotificationsService } from '../notifications/index.js';
import { buildCountingApp, type CountingApp } from '../notifications/test-support.js';
import { seedTestCatalog } from '../../../test/fixtures.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';

// Issue 28, item 8: the operators hear of their farm's trouble in the console's bell always, and by e-mail and in
// their linked Telegram chat as each of them chose (GET/PATCH /api/v1/admin/alerts).

let t: CountingApp;
let notifications: NotificationsService;
let ana: Signed;
let ivan: Signed;
let modems: string[];

beforeAll(async () => {
  t = await buildCountingApp();
  notifications = new NotificationsService(new NotificationsRepository(t.ctx.db));
  await seedTestCatalog(t);
  ana = await signedIn(t, 'admin');
  ivan = await signedIn(t, 'admin');
  await t.ctx.db.insertInto('telegram_links').values([ana, ivan].map((op) => ({ user_id: op.id, chat_id: `chat-${op.id}`, chat_name: op.email, kinds: JSON.stringify([]) }))).execute();
  const host = await t.ctx.db.selectFrom('hosts').select('id').orderBy('name').executeTakeFirstOrThrow();
  modems = (await t.ctx.db.selectFrom('modems').select('id').where('host_id', '=', host.id).orderBy('imei').limit(2).execute()).map((m) => m.id);
});
afterAll(async () => { await t.close(); });

/** Queued for the channel ('pending'), or already sent by the app after the commit. */
const queued = expect.stringMatching(/^(pending|sent)$/);
const alertsOf = (op: Signed, key: string) => t.ctx.db.selectFrom('notifications').select(['email', 'telegram', 'text'])
  .where('user_id', '=', op.id).where('text_key', '=', key).orderBy('created_at').execute();

describe('operator alerts', () => {
  it('a host\'s modems going down and back reach every operator: bell, e-mail and Telegram, by default', async () => {
    await notifications.modemAvailability(modems, false);
    for (const op of [ana, ivan]) {
      const [alert] = await alertsOf(op, 'operator_modems_down');
      expect(alert).toMatchObject({ email: queued, telegram: queued, text: expect.stringMatching(/^Modems offline on /) });
    }
    // The console's bell shows it, with a link to the inventory.
    const bell = (await call(t, ana.cookie, 'GET', '/api/v1/notifications')).json();
    const items = (Array.isArray(bell) ? bell : bell.data ?? bell.notifications) as Array<{ text: string; link?: string }>;
    expect(items.find((n) => n.text.startsWith('Modems offline on'))?.link).toBe('/admin/inventory');
    // Told once: the same outage recorded again alerts nobody.
    await notifications.modemAvailability(modems, false);
    expect(await alertsOf(ana, 'operator_modems_down')).toHaveLength(1);
  });

  it('each operator chooses e-mail and Telegram for themselves; the change is audited', async () => {
    expect((await call(t, ana.cookie, 'GET', '/api/v1/admin/alerts')).json()).toEqual({ email: true, telegram: true, telegramLinked: true });
    const saved = await call(t, ana.cookie, 'PATCH', '/api/v1/admin/alerts', { email: false, telegram: false });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ email: false, telegram: false, telegramLinked: true });
    expect(await auditOf(t, 'alerts.update')).toMatchObject([{ before: { email: true, telegram: true }, after: { email: false, telegram: false } }]);

    await notifications.modemAvailability(modems, true);
    const [anaUp] = await alertsOf(ana, 'operator_modems_up');
    const [ivanUp] = await alertsOf(ivan, 'operator_modems_up');
    expect(anaUp).toMatchObject({ email: null, telegram: null });
    expect(ivanUp).toMatchObject({ email: queued, telegram: queued });
  });

  it('an operator alert e-mail is a service message: no unsubscribe link, whatever the marketing consent', async () => {
    await t.ctx.db.updateTable('users').set({ marketing_consent: false }).where('id', '=', ivan.id).execute();
    await t.settled();
    const mail = await t.ctx.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', ivan.email)
      .where('subject', '=', 'Cellport alert: your farm needs a look').orderBy('created_at').execute();
    expect(mail.length).toBeGreaterThanOrEqual(2);
    for (const m of mail) expect(`${m.text}${m.html}`).not.toMatch(/unsubscribe/i);
    // Ana turned e-mail off before the modems came back: she got the first alert's mail only.
    const anas = await t.ctx.db.selectFrom('mail_outbox').select('id').where('to_email', '=', ana.email).execute();
    expect(anas).toHaveLength(1);
  });

  it('a customer cannot read or change the alert settings', async () => {
    const customer = await signedIn(t, 'customer');
    expect((await call(t, customer.cookie, 'GET', '/api/v1/admin/alerts')).statusCode).toBe(403);
    expect((await call(t, customer.cookie, 'PATCH', '/api/v1/admin/alerts', { email: false })).statusCode).toBe(403);
  });
});
