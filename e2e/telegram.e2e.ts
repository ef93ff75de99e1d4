// Telegram (issue 16, item 2) end to end: the built server's real grammy adapter talks to a fake Bot API on
// 127.0.0.1 (apps/server/test/fake-telegram.ts) by long polling. The demo customer opens Account, gets the one-time
// link, the fake delivers `/start <token>` as an update, the page shows the chat linked, and a payment's
// notification arrives among the fake's sent messages.
import type { APIRequestContext } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../apps/server/test/fake-telegram.js';
import { useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { t } from './support/locales.js';
import { useServer } from './support/server.js';

let tg: FakeTelegram;
const env: Record<string, string> = {};
// Registered before useServer's: the fake's address is in the server's settings when it starts.
beforeAll(async () => {
  tg = await startFakeTelegram();
  Object.assign(env, { TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot });
});
const server = useServer({ name: 'telegram', env });
const browser = useBrowser();
afterAll(async () => { await tg?.close(); });

const CHAT = 424242;

async function call<T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: data === undefined ? { origin: server.url } : { origin: server.url, 'content-type': 'application/json' },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

test('a customer links Telegram from Account through the bot, and gets a notification there', async () => {
  const { page, context } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  await page.goto(`${server.url}/en/account`);
  const card = page.locator('section[aria-labelledby="account-telegram-title"]');
  await card.getByRole('heading', { name: t('en', 'telegram:title') }).waitFor();
  await card.getByTestId('telegram-status').filter({ hasText: t('en', 'telegram:notLinked') }).waitFor();

  await card.getByRole('button', { name: t('en', 'telegram:link') }).click();
  const link = (await card.getByTestId('telegram-link').textContent())!.trim();
  expect(link).toMatch(/^https:\/\/t\.me\/cellport_test_bot\?start=[\w-]{20,64}$/);
  await card.getByRole('link', { name: t('en', 'telegram:linkOpen') }).waitFor();
  await visitCheck(page, 'account-telegram-link');

  // The bot polls the fake; the customer presses Start in Telegram: the fake hands `/start <token>` to getUpdates.
  await tg.polling();
  tg.userSays(CHAT, `/start ${new URL(link).searchParams.get('start')}`, { username: 'demo_tg', language_code: 'en' });
  const welcome = await tg.nextMessage(CHAT, (text) => text.includes('Cellport'), 0);
  expect(welcome.text).toContain(`Linked to your Cellport account ${demo.email}`);

  // The page sees the link without a reload (it polls while the link waits).
  await card.getByText(t('en', 'telegram:linkedTo', { name: '@demo_tg' })).waitFor({ timeout: 15_000 });
  await card.getByRole('checkbox', { name: t('en', 'telegram:kind.payment_received') }).waitFor();
  expect(await card.getByRole('checkbox', { name: t('en', 'telegram:kind.payment_received') }).isChecked()).toBe(true);

  // A sandbox PayPal top-up: its 'payment received' notification goes to the linked chat, after the commit.
  const sentBefore = tg.sent.length;
  const pending = await call<{ data: { _id: string } }>(context.request, 'POST', '/payment/paypal/pending', { amount: '25', description: 'Top-up' });
  await call(context.request, 'POST', `/pending-payments/${pending.data._id}/simulate`);
  const notice = await tg.nextMessage(CHAT, (text) => text.includes('25'), sentBefore);
  expect(notice.text).toMatch(/^Payment of \$25(\.00)? received/);

  await page.reload();
  await card.getByText(t('en', 'telegram:linkedTo', { name: '@demo_tg' })).waitFor();
  await visitCheck(page, 'account-telegram-linked');
});
