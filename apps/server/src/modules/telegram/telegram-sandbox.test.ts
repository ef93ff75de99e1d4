import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, json } from '../../../test/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

// Issue 27, item 12: with no bot token (the sandbox bot) a customer starts linking on the Account page and the dev
// mailbox page plays Telegram's part: "/start <token>" reaches the same bot code, and the account shows it linked.
let t: TestApp;
beforeAll(async () => { t = await buildTestApp(); });
afterAll(async () => { await t.close(); });

const simulate = (body: unknown, remoteAddress = '127.0.0.1', cookie = '') =>
  t.app.inject({ method: 'POST', url: '/api/v1/dev/telegram/start', remoteAddress, ...json(cookie, body) });

describe('the sandbox bot, simulated from the dev page', () => {
  it('links the account of the link: the bot answers in their language and the account shows the chat; the link works once', async () => {
    const c = await createCustomer(t, 0, 'ru');
    const link = await t.app.inject({ method: 'POST', url: '/api/v1/telegram/link', ...json(c.cookie) });
    expect(link.statusCode, link.body).toBe(200);
    const url = link.json().url as string;
    expect(url).toMatch(/^https:\/\/t\.me\/cellport_sandbox_bot\?start=/);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/telegram', ...json(c.cookie) })).json()).toMatchObject({ sandbox: true, linked: false });

    const res = await simulate({ link: url, chatName: '@ivan' });
    expect(res.statusCode, res.body).toBe(200);
    const email = (await t.ctx.db.selectFrom('users').select('email').where('id', '=', c.id).executeTakeFirstOrThrow()).email;
    expect(res.json().reply).toContain(email);
    expect(res.json().reply).toMatch(/[а-яё]/i);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/telegram', ...json(c.cookie) })).json()).toMatchObject({ linked: true, chatName: '@ivan' });

    // Used once: the same link again is refused by the bot, and the link stays with the first chat.
    const again = await simulate({ link: url, chatName: '@someone' });
    expect(again.statusCode).toBe(200);
    expect(again.json().reply).not.toContain(email);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/telegram', ...json(c.cookie) })).json()).toMatchObject({ linked: true, chatName: '@ivan' });
  });

  it('refuses what is not a link, and a stranger on the network', async () => {
    expect((await simulate({ link: 'https://t.me/cellport_sandbox_bot' })).statusCode).toBe(400);
    expect((await simulate({ link: '' })).statusCode).toBe(400);
    expect((await simulate({ link: 'https://t.me/cellport_sandbox_bot?start=abcdefgh12345678' }, '10.1.2.3')).statusCode).toBe(403);
  });
});
