// Sign-in errors and where the app sends people: wrong password, unknown account, the unknown-path redirect,
// the return to a protected page after sign-in, and the language switcher on public pages and in the shell.
import { expect, test } from 'vitest';
import { useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, formAlert, signIn, submitSignIn } from './support/flows.js';
import { exact, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'navigation' });
const browser = useBrowser();
const demoName = 'Demo Customer';

test('a wrong password shows the error under the form and signs nobody in', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', { email: demo.email, password: 'Wrong#Pass1' });
  await expect.poll(() => formAlert(page).textContent()).toBe(t('en', 'errors:WRONG_PASSWORD'));
  expect(new URL(page.url()).pathname).toBe('/en/sign-in');
  await visitCheck(page, 'sign-in-wrong-password');

  await submitSignIn(page, 'en', { email: 'nobody@example.com', password: 'Wrong#Pass1' });
  await expect.poll(() => formAlert(page).textContent()).toBe(t('en', 'errors:ACCOUNT_NOT_FOUND'));
  const account = await fetch(`${server.url}/api/v1/account`, { headers: { cookie: cookieHeader(await page.context().cookies()) } });
  expect(account.status).toBe(401);
});

test('an unknown path goes to /en/dashboard, signed out to sign-in, and back to the dashboard after it', async () => {
  const { page } = browser;
  await page.goto(`${server.url}/whatever/you/like`);
  await page.waitForURL(`${server.url}/en/sign-in?**`);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/en/dashboard');
  await submitSignIn(page, 'en', demo);
  await page.waitForURL(`${server.url}/en/dashboard`);
  await expectDashboard(page, server.url, 'en', demoName);
});

test('a signed-out visit of /en/proxies goes to sign-in and returns to /en/proxies after it', async () => {
  const { page } = browser;
  await page.goto(`${server.url}/en/proxies`);
  await page.waitForURL(`${server.url}/en/sign-in?**`);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/en/proxies');
  await submitSignIn(page, 'en', demo);
  await page.waitForURL(`${server.url}/en/proxies`);
  await page.getByRole('heading', { level: 1, name: exact(t('en', 'common:nav.proxies')) }).waitFor();
  await visitCheck(page, 'proxies');
});

test('the language switcher rewrites the language segment on public pages and in the shell', async () => {
  const { page } = browser;
  await page.goto(`${server.url}/en/sign-in?redirect=%2Fen%2Faccount`);
  const switcher = page.getByRole('navigation', { name: t('en', 'common:language') });
  await switcher.getByRole('link', { name: t('en', 'common:languages.ru') }).click();
  await page.waitForURL(`${server.url}/ru/sign-in?redirect=%2Fen%2Faccount`);
  await page.getByRole('heading', { level: 1, name: exact(t('ru', 'auth:signIn.title')) }).waitFor();
  await visitCheck(page, 'ru-sign-in');

  await page.getByRole('navigation', { name: t('ru', 'common:language') })
    .getByRole('link', { name: t('ru', 'common:languages.cn') }).click();
  await page.waitForURL(`${server.url}/cn/sign-in?**`);
  await page.getByRole('heading', { level: 1, name: exact(t('cn', 'auth:signIn.title')) }).waitFor();
  await visitCheck(page, 'cn-sign-in');

  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', demoName);
  // In the shell the switcher is a select; it keeps the rest of the path as it is.
  await page.goto(`${server.url}/en/dashboard`);
  await expectDashboard(page, server.url, 'en', demoName);
  await page.getByLabel(t('en', 'common:language'), { exact: true }).selectOption('cn');
  await page.waitForURL(`${server.url}/cn/dashboard`);
  await page.getByRole('heading', { level: 1, name: exact(t('cn', 'pages:dashboard.welcome', { name: demoName })) }).waitFor();
  await visitCheck(page, 'cn-dashboard');
  await page.getByLabel(t('cn', 'common:language'), { exact: true }).selectOption('ru');
  await page.waitForURL(`${server.url}/ru/dashboard`);
  await page.getByRole('heading', { level: 1, name: exact(t('ru', 'pages:dashboard.welcome', { name: demoName })) }).waitFor();
  await visitCheck(page, 'ru-dashboard');
});

test('the harness itself fails a test on console.error (checked here, then cleared)', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/en/sign-in`);
  await page.evaluate(() => console.error('deliberate'));
  await expect.poll(() => errors.some((e) => e.includes('deliberate'))).toBe(true);
  errors.length = 0;
});

function cookieHeader(cookies: Array<{ name: string; value: string }>): string {
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}
