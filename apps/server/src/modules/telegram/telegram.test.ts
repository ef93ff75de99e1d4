import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fake-telegram.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { hashToken } from '../../lib/tokens.js';
import { auditOf, call, signedIn } from '../../../test/console-helpers.js';
import { NotificationsRepository, NotificationsService, renderNotification } from '../notifications/index.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';

// The real adapter (grammy) against a fake Bot API on 127.0.0.1, long polling: link with /start <token>,
// a notification in Russian, /proxies, /balance, /rotate, a used and an expired token, unlink (issue 16, item 2).
let t: TestApp;
let tg: FakeTelegram;
let ivan: Customer;
let portId: string;
let httpPort: number;
const CHAT = 7001;
const STRANGER = 7002;

const say = async (chatId: number, text: string, from?: Parameters<FakeTelegram['userSays']>[2]) => {
  const after = tg.sent.length;
  tg.userSays(chatId, text, from);
  return (await tg.nextMessage(chatId, () => true, after)).text;
};

beforeAll(async () => {
  tg = await startFakeTelegram();
  t = await buildTestApp({
    TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot,
    MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', MODEM_SIM_SAME_IP_RATE: '0',
  });
  const cat = await seedTestCatalog(t);
  ivan = await createCustomer(t, 1000, 'ru');
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(ivan.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  portId = bought.json().data.modems[0]._id;
  httpPort = bought.json().data.modems[0].http_port;
  await tg.polling();
});
afterAll(async () => { await t?.close(); await tg?.close(); });

async function linkUrl(c: Customer): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/telegram/link', ...json(c.cookie) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().url as string;
}
const status = async (c: Customer) => (await t.app.inject({ method: 'GET', url: '/api/v1/telegram', ...json(c.cookie) })).json();

describe('Telegram bot against the fake Bot API', () => {
  it('has no "simulate the bot" step: only the sandbox bot can be simulated', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/dev/telegram/start', ...json(ivan.cookie, { link: await linkUrl(ivan) }) });
    expect(res.statusCode).toBe(404);
  });

  it('polls from one instance, which holds the lease', async () => {
    expect(tg.calls).toContain('getMe');
    expect(tg.calls).toContain('deleteWebhook');
    expect(await t.ctx.db.selectFrom('telegram_poller').select('holder').execute()).toHaveLength(1);
  });

  it('links a chat with /start <token> and answers in the customer\'s language', async () => {
    expect(await status(ivan)).toMatchObject({ available: true, sandbox: false, botUsername: 'cellport_test_bot', linked: false });
    const url = await linkUrl(ivan);
    expect(url).toMatch(/^https:\/\/t\.me\/cellport_test_bot\?start=[\w-]{20,64}$/);
    const token = new URL(url).searchParams.get('start')!;
    // Stored hashed: the token itself is nowhere in the database.
    expect(await t.ctx.db.selectFrom('telegram_link_tokens').select('token_hash').where('token_hash', '=', token).execute()).toEqual([]);

    const answer = await say(CHAT, `/start ${token}`, { username: 'ivan', language_code: 'en' });
    expect(answer).toContain('Чат привязан к аккаунту Cellport');
    expect(await status(ivan)).toMatchObject({ linked: true, chatName: '@ivan' });

    // Used once: the same link from another chat is refused (in that sender's language), and links nothing.
    expect(await say(STRANGER, `/start ${token}`, { language_code: 'en' })).toContain('already used or has expired');
    expect(await t.ctx.db.selectFrom('telegram_links').select('chat_id').where('user_id', '=', ivan.id).executeTakeFirst())
      .toEqual({ chat_id: String(CHAT) });
  });

  it('refuses an expired token', async () => {
    const other = await createCustomer(t, 0, 'cn');
    await t.ctx.db.insertInto('telegram_link_tokens')
      .values({ token_hash: hashToken('expired-token-000000000000'), user_id: other.id, expires_at: new Date(Date.now() - 1000) }).execute();
    expect(await say(STRANGER, '/start expired-token-000000000000', { language_code: 'zh-hans' })).toContain('此链接已被使用或已过期');
    expect((await status(other)).linked).toBe(false);
  });

  it('delivers a chosen notification in Russian, once, and not the kinds switched off', async () => {
    const after = tg.sent.length;
    await new NotificationsService(new NotificationsRepository(t.ctx.db)).notify(ivan.id, 'other', 'expiry_reminder_1d', { name: 'US-1', date: '2026-12-31' });
    const message = await tg.nextMessage(CHAT, (text) => text.includes('US-1'), after);
    expect(message.text).toBe(renderNotification('ru', 'expiry_reminder_1d', { name: 'US-1', date: '2026-12-31' }));
    expect(message.text).toContain('завтра');
    const row = await t.ctx.db.selectFrom('notifications').select('telegram').where('user_id', '=', ivan.id)
      .where('text_key', '=', 'expiry_reminder_1d').executeTakeFirstOrThrow();
    expect(row.telegram).toBe('sent');
    expect(await t.app.telegram.notifications.sweep(0)).toBe(0);

    const prefs = await t.app.inject({ method: 'PUT', url: '/api/v1/telegram/preferences', ...json(ivan.cookie, { kinds: ['modem_down'] }) });
    expect(prefs.statusCode, prefs.body).toBe(200);
    expect(prefs.json().kinds).toEqual(['modem_down']);
    await new NotificationsService(new NotificationsRepository(t.ctx.db)).notify(ivan.id, 'other', 'port_expired', { name: 'US-1', graceDays: 3 });
    const skipped = await t.ctx.db.selectFrom('notifications').select('telegram').where('user_id', '=', ivan.id)
      .where('text_key', '=', 'port_expired').executeTakeFirstOrThrow();
    expect(skipped.telegram).toBeNull();
    const bad = await t.app.inject({ method: 'PUT', url: '/api/v1/telegram/preferences', ...json(ivan.cookie, { kinds: ['nope'] }) });
    expect(bad.statusCode).toBe(400);
  });

  it('answers /proxies, /balance and /help', async () => {
    // The list as Ivan reads it in Russian, as the bot answers him (a default name reads "Прокси 1"; issue 27, item 12).
    const ports = (await t.app.inject({ method: 'GET', url: '/api/v1/modems?lng=ru', ...json(ivan.cookie) })).json() as Array<{ modem_name: string; host: string }>;
    const proxies = await say(CHAT, '/proxies');
    expect(proxies).toContain('Ваши прокси:');
    expect(proxies).toContain(`${ports[0]!.modem_name} — ${ports[0]!.host}:${httpPort}`);
    expect(await say(CHAT, '/balance')).toMatch(/^Баланс: \$\d+\.\d\d$/);
    expect(await say(CHAT, '/help')).toContain('/rotate <порт>');
  });

  it('/rotate <port> rotates through the rotation service, with its once-a-minute rule', async () => {
    const before = await t.ctx.db.selectFrom('ports').innerJoin('modems', 'modems.id', 'ports.modem_id')
      .select('modems.ext_ip').where('ports.id', '=', portId).executeTakeFirstOrThrow();
    const rotated = await say(CHAT, `/rotate ${httpPort}`);
    const after = await t.ctx.db.selectFrom('ports').innerJoin('modems', 'modems.id', 'ports.modem_id')
      .select(['modems.ext_ip', 'ports.last_rotated_at']).where('ports.id', '=', portId).executeTakeFirstOrThrow();
    expect(after.ext_ip).not.toBe(before.ext_ip);
    expect(rotated).toContain(`новый IP ${after.ext_ip}`);
    expect(after.last_rotated_at).not.toBeNull();
    expect(await say(CHAT, `/rotate ${httpPort}`)).toMatch(/Менять IP этого порта можно раз в минуту\. Попробуйте через \d+ с\./);
    expect(await say(CHAT, '/rotate 1')).toContain('нет порта «1»');
    expect(await say(CHAT, '/rotate')).toContain('Какой порт?');
  });

  it('tells an unlinked chat how to link', async () => {
    expect(await say(STRANGER, '/proxies', { language_code: 'ru' })).toContain('не привязан к аккаунту Cellport');
  });

  it('unlinks: the chat is told, and its commands stop working', async () => {
    const after = tg.sent.length;
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/telegram', ...json(ivan.cookie) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await tg.nextMessage(CHAT, () => true, after)).text).toBe('Этот чат больше не привязан к вашему аккаунту Cellport.');
    expect((await status(ivan)).linked).toBe(false);
    expect(await say(CHAT, '/balance', { language_code: 'en' })).toContain('not linked to a Cellport account');
    const prefs = await t.app.inject({ method: 'PUT', url: '/api/v1/telegram/preferences', ...json(ivan.cookie, { kinds: [] }) });
    expect(prefs.statusCode).toBe(404);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/v1/telegram']!)).toEqual(expect.arrayContaining(['get', 'delete']));
    expect(doc.paths['/api/v1/telegram/link']!.post).toBeDefined();
    expect(doc.paths['/api/v1/telegram/preferences']!.put).toBeDefined();
    expect(doc.paths['/api/v1/telegram/webhook']).toBeUndefined();
  });

  it('the console shows where the token comes from, never the token, and stores a new one sealed (audited)', async () => {
    const operator = await signedIn(t, 'admin');
    const seen = await call(t, operator.cookie, 'GET', '/api/v1/admin/telegram');
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toEqual({ source: 'env', tokenHint: `123456789:…${tg.token.slice(-4)}`, mode: 'polling', sandbox: false, botUsername: 'cellport_test_bot' });
    expect(seen.body).not.toContain(tg.token);
    expect((await call(t, ivan.cookie, 'GET', '/api/v1/admin/telegram')).statusCode).toBe(403);
    expect((await call(t, operator.cookie, 'PATCH', '/api/v1/admin/telegram', { token: 'not-a-token' })).statusCode).toBe(400);

    // The same token saved in the console: stored sealed, and the bot is rebuilt and polls again.
    const saved = await call(t, operator.cookie, 'PATCH', '/api/v1/admin/telegram', { token: tg.token });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().source).toBe('console');
    const row = await t.ctx.db.selectFrom('settings').select('value').where('key', '=', 'telegram').executeTakeFirstOrThrow();
    expect(JSON.stringify(row.value)).not.toContain(tg.token);
    const entries = await auditOf(t, 'settings.telegram');
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(tg.token);
    expect(await say(STRANGER, '/help', { language_code: 'en' })).toContain('not linked to a Cellport account');
  });
});

describe('Telegram bot in webhook mode', () => {
  it('sets the webhook with a secret token, and answers the updates Telegram posts with it', async () => {
    const fake = await startFakeTelegram({ username: 'cellport_hook_bot' });
    const hooked = await buildTestApp({ TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot, TELEGRAM_MODE: 'webhook' });
    try {
      await hooked.app.telegram.bot.settled();
      const status = await hooked.app.inject({ method: 'GET', url: '/api/v1/telegram', ...json((await createCustomer(hooked)).cookie) });
      expect(status.json()).toMatchObject({ available: true, botUsername: 'cellport_hook_bot' });
      expect(fake.webhook).toMatchObject({ url: 'http://localhost:3000/api/v1/telegram/webhook' });
      expect(fake.calls).not.toContain('getUpdates');
      const update = { update_id: 1, message: { message_id: 1, date: 0, text: '/help', chat: { id: 55, type: 'private' }, from: { id: 55, is_bot: false, first_name: 'A', language_code: 'ru' } } };
      const refused = await hooked.app.inject({ method: 'POST', url: '/api/v1/telegram/webhook', headers: { 'x-telegram-bot-api-secret-token': 'wrong' }, payload: update });
      expect(refused.statusCode).toBe(403);
      const after = fake.sent.length;
      const accepted = await hooked.app.inject({
        method: 'POST', url: '/api/v1/telegram/webhook', headers: { 'x-telegram-bot-api-secret-token': fake.webhook!.secretToken! }, payload: update,
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await fake.nextMessage(55, () => true, after)).text).toContain('не привязан к аккаунту Cellport');
    } finally {
      await hooked.close();
      await fake.close();
    }
  });
});
