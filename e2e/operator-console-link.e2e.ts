// Issue 14, item 9: an operator finds the console. After `npm run admin -- create` the operator signs in and lands on
// the dashboard, where the sidebar and the user menu link to /{lng}/admin; /admin itself goes to the console in the
// browser's language. A customer sees neither link.
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { checkA11y, shot, useBrowser } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'operator-console-link' });
const browser = useBrowser();
const operator = { email: 'finder@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const consoleHeading = (page: Page, lng: 'en' | 'ru' | 'cn') =>
  page.getByRole('heading', { level: 1, name: exact(t(lng, 'admin:nav.overview')) });
const sidebar = (page: Page, lng: 'en' | 'ru' | 'cn') => page.getByRole('navigation', { name: t(lng, 'shell:navigation') });

test('an operator reaches the console from the sidebar and from the user menu; /admin goes to /{lng}/admin', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'ru', operator);
  await page.waitForURL(new RegExp(`^${server.url}/ru(/dashboard)?/?$`));
  await page.getByRole('heading', { level: 1 }).first().waitFor();

  const inSidebar = sidebar(page, 'ru').getByRole('link', { name: exact(t('ru', 'shell:console')) });
  await inSidebar.waitFor();
  await page.getByRole('button', { name: t('ru', 'shell:userMenu') }).click();
  const inMenu = page.locator('.user-menu__panel').getByRole('link', { name: exact(t('ru', 'shell:console')) });
  await inMenu.waitFor();
  await shot(page, 'ru-operator-menu');
  await checkA11y(page, 'operator menu');
  await inMenu.click();
  await page.waitForURL(`${server.url}/ru/admin`);
  await consoleHeading(page, 'ru').waitFor();

  await page.goto(`${server.url}/en/dashboard`);
  await sidebar(page, 'en').getByRole('link', { name: exact(t('en', 'shell:console')) }).click();
  await page.waitForURL(`${server.url}/en/admin`);
  await consoleHeading(page, 'en').waitFor();

  // The address the README gives: the browser's language (en-US here), the rest of the path kept.
  await page.goto(`${server.url}/admin`);
  await page.waitForURL(`${server.url}/en/admin`);
  await consoleHeading(page, 'en').waitFor();
  await page.goto(`${server.url}/admin/customers`);
  await page.waitForURL(`${server.url}/en/admin/customers`);
  await page.getByRole('heading', { level: 1, name: exact(t('en', 'admin:nav.customers')) }).waitFor();
});

test('a customer sees no console link', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  await page.getByRole('button', { name: t('en', 'shell:userMenu') }).click();
  await page.getByRole('link', { name: exact(t('en', 'common:nav.account')) }).last().waitFor();
  expect(await page.getByRole('link', { name: exact(t('en', 'shell:console')) }).count()).toBe(0);
});
