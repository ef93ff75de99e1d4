// Issue 28, item 8, in a real browser: the operator console has its own bell. A customer's new support request (an
// operator alert of the same family as the farm's) shows in it, and following it opens the request in the console;
// on Settings, "My alerts" chooses e-mail and Telegram, saved and audited. axe on the bell and the settings, desktop
// and phone.
import type { APIRequestContext } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { apiCall } from './support/api.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'console-alerts' });
const browser = useBrowser();
const operator = { email: 'alerts-ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const call = <T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown) =>
  apiCall<T>(request, server.url, method, path, data);

test('the console bell shows an operator alert and opens its page; My alerts saves the channels', async () => {
  const { page } = browser;
  // A customer asks for help, from a browser of their own.
  const { context: customer, page: customerPage } = await browser.secondContext();
  await signIn(customerPage, server.url, 'en', demo);
  await expectDashboard(customerPage, server.url, 'en', 'Demo Customer');
  const { ticket } = await call<{ ticket: { _id: string; number: number } }>(customer.request, 'POST', '/support/tickets', {
    subject: 'Console bell check', body: 'Does the operator hear of me?',
  });

  await signIn(page, server.url, 'en', operator, { redirect: '/en/admin' });
  await page.waitForURL(`${server.url}/en/admin`);
  const unread = new RegExp(`^${t('en', 'notifications-ui:labelUnread', { count: 1 }).replace('1', '\\d+')}$`);
  const bell = page.locator('.admin-bell').getByRole('button', { name: unread });
  await bell.click();
  const note = page.locator('.notifications-popover').getByRole('link', { name: new RegExp(`#${ticket.number}`) });
  await note.waitFor({ timeout: 20_000 });
  await visitCheck(page, 'console-bell');
  await note.click();
  await page.waitForURL(`${server.url}/en/admin/support/${ticket._id}`);

  await page.goto(`${server.url}/en/admin/settings`);
  const card = page.locator('section[aria-labelledby="settings-alerts"]');
  const email = card.getByRole('checkbox', { name: exact(t('en', 'admin:alerts.email')) });
  await email.waitFor();
  expect(await email.isChecked()).toBe(true);
  await email.uncheck();
  await page.getByText(t('en', 'admin:alerts.saved')).first().waitFor();
  await page.reload();
  await card.getByRole('checkbox', { name: exact(t('en', 'admin:alerts.telegram')) }).waitFor();
  expect(await card.getByRole('checkbox', { name: exact(t('en', 'admin:alerts.email')) }).isChecked()).toBe(false);
  expect((await call<{ email: boolean }>(page.request, 'GET', '/admin/alerts')).email).toBe(false);
  await visitCheck(page, 'console-alerts-settings');

  await page.setViewportSize(phoneViewport);
  await page.locator('.admin-bell').getByRole('button').click();
  await page.locator('.notifications-popover').waitFor();
  await visitCheck(page, 'console-bell-phone');
});
