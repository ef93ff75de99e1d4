// Issue 27, item 12: with no bot token (the sandbox bot, the offline default) Telegram linking can be finished: the
// customer presses "Link Telegram" on Account, pastes the link into the dev mailbox page's "simulate the bot" step,
// the sandbox bot answers as the real one would, and Account shows the chat linked. In Russian, axe, desktop and phone.
import { expect, test } from 'vitest';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'telegram-sandbox' });
const browser = useBrowser();

test('ru: Account → Link Telegram → "simulate the bot" on /dev/mailbox → Account shows Telegram linked', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'ru', demo);
  await expectDashboard(page, server.url, 'ru', 'Demo Customer');
  await page.goto(`${server.url}/ru/account`);
  const card = page.locator('section[aria-labelledby="account-telegram-title"]');
  await card.getByTestId('telegram-sandbox').waitFor();
  await card.getByTestId('telegram-status').filter({ hasText: t('ru', 'telegram:notLinked') }).waitFor();
  await card.getByRole('button', { name: exact(t('ru', 'telegram:link')) }).click();
  const link = (await card.getByTestId('telegram-link').textContent())!.trim();
  expect(link).toMatch(/^https:\/\/t\.me\/cellport_sandbox_bot\?start=/);

  // The person plays Telegram's part on the dev page, in another tab.
  const dev = await browser.newPage();
  await dev.goto(`${server.url}/dev/mailbox`);
  const bot = dev.getByTestId('sandbox-bot');
  await bot.getByRole('heading', { name: exact(t('en', 'pages:mailbox.bot.title')) }).waitFor();
  await bot.getByLabel(t('en', 'pages:mailbox.bot.linkLabel')).fill('https://t.me/cellport_sandbox_bot');
  await bot.getByRole('button', { name: exact(t('en', 'pages:mailbox.bot.start')) }).click();
  await bot.getByRole('alert').filter({ hasText: t('en', 'pages:mailbox.bot.badLink') }).waitFor();
  await bot.getByLabel(t('en', 'pages:mailbox.bot.linkLabel')).fill(link);
  await bot.getByLabel(t('en', 'pages:mailbox.bot.chatLabel')).fill('@demo_sandbox');
  await bot.getByRole('button', { name: exact(t('en', 'pages:mailbox.bot.start')) }).click();
  const reply = bot.getByTestId('sandbox-bot-reply');
  await reply.waitFor();
  // The bot answers in the account's language (the demo's is English), naming the account, as the real bot does.
  expect(await reply.textContent()).toContain(demo.email);
  await visitCheck(dev, 'telegram-sandbox-bot');
  await dev.setViewportSize(phoneViewport);
  await visitCheck(dev, 'telegram-sandbox-bot-phone');

  // Back on Account, still open: it shows the chat linked.
  await card.getByText(t('ru', 'telegram:linkedTo', { name: '@demo_sandbox' })).waitFor({ timeout: 15_000 });
  await visitCheck(page, 'telegram-sandbox-account-linked-ru');
});
