// Issue 14, items 4 and 8 in a real browser. Sign-up step 3 links to the Terms of Service and the Refund Policy,
// which open in a new tab (the form keeps what was typed); an operator edits the Refund Policy in the console with a
// live preview and publishes it, and the public page shows the new version; the Documentation page in Chinese shows
// its API reference and examples in Chinese. Screenshots of each, checked with axe.
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, newAccount, signIn } from './support/flows.js';
import { exact, startsWith, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'legal' });
const browser = useBrowser();
const operator = { email: 'legal-ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const h1 = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: exact(text) });
const button = (page: Page, text: string) => page.getByRole('button', { name: exact(text) });

test('sign-up step 3 opens the Terms of Service and the Refund Policy in a new tab, in the page language', async () => {
  const { page, context } = browser;
  const lng: Language = 'cn';
  const account = newAccount('legal-cn');
  await page.goto(`${server.url}/${lng}/sign-up`);
  await page.getByLabel(t(lng, 'auth:fields.name'), { exact: true }).fill(account.name);
  await page.getByLabel(t(lng, 'auth:fields.email'), { exact: true }).fill(account.email);
  await page.getByLabel(t(lng, 'auth:fields.password'), { exact: true }).fill(account.password);
  await button(page, t(lng, 'auth:signUp.next')).click();
  await page.getByLabel(t(lng, 'auth:fields.purpose'), { exact: true }).fill(account.purpose);
  await button(page, t(lng, 'auth:signUp.next')).click();
  await page.getByLabel(t(lng, 'auth:fields.terms'), { exact: true }).waitFor();

  const [terms] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('link', { name: t(lng, 'auth:signUp.readTerms') }).click(),
  ]);
  await terms.waitForURL(`${server.url}/${lng}/terms`);
  await h1(terms, t(lng, 'legal:titles.terms')).waitFor();
  await terms.getByText(startsWith(t(lng, 'legal:meta', { version: 1, date: '' }).trim())).waitFor();
  await terms.getByRole('heading', { level: 2 }).first().waitFor();
  expect(await terms.locator('.legal-page__body').innerText()).toContain('服务');
  await visitCheck(terms, 'cn-terms');
  await terms.getByRole('navigation', { name: t(lng, 'legal:seeAlso') }).getByRole('link', { name: exact(t(lng, 'legal:titles.refund-policy')) }).click();
  await terms.waitForURL(`${server.url}/${lng}/refund-policy`);
  await h1(terms, t(lng, 'legal:titles.refund-policy')).waitFor();
  await terms.close();

  // The sign-up form is still on step 3 with everything typed; finishing it records the versions (server tests).
  await page.getByLabel(t(lng, 'auth:fields.terms'), { exact: true }).check();
  await page.getByLabel(t(lng, 'auth:fields.marketing'), { exact: true }).check();
  await visitCheck(page, 'cn-sign-up-3-terms-links');
  await button(page, t(lng, 'auth:signUp.create')).click();
  await page.waitForURL(`${server.url}/${lng}/confirm-email/**`);
});

test('an operator edits the Refund Policy with a preview and publishes it; the public page shows the new version', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', operator, { redirect: '/en/admin' });
  await page.waitForURL(`${server.url}/en/admin`);
  await page.goto(`${server.url}/en/admin/legal`);
  await h1(page, t('en', 'admin:nav.legal')).waitFor();
  await page.getByRole('tab', { name: t('en', 'admin:legal.kinds.refund-policy') }).click();
  const editor = page.getByLabel(t('en', 'admin:legal.text'), { exact: true });
  await expect.poll(() => editor.inputValue()).toContain('## ');
  const publish = button(page, t('en', 'admin:legal.publish'));
  expect(await publish.isDisabled(), 'nothing to publish before an edit').toBe(true);

  const text = '## Refunds in 2026\n\nAsk within **14 days**. <script>alert(1)</script>\n\n- Card: 5 to 10 days\n- Crypto: same coin';
  await editor.fill(text);
  const preview = page.locator('.admin-legal__paper');
  await preview.getByRole('heading', { level: 2, name: 'Refunds in 2026' }).waitFor();
  expect(await preview.locator('strong').innerText()).toBe('14 days');
  expect(await preview.innerText()).toContain('<script>alert(1)</script>'); // shown as text, never run
  expect(await preview.locator('script').count()).toBe(0);
  await visitCheck(page, 'console-legal-preview');
  await publish.click();
  await page.locator('[data-sonner-toast]', { hasText: t('en', 'admin:legal.published', { version: 2 }) }).first().waitFor();
  await page.getByRole('cell', { name: exact(operator.email) }).first().waitFor();

  await page.goto(`${server.url}/en/refund-policy`);
  await h1(page, t('en', 'legal:titles.refund-policy')).waitFor();
  await page.getByRole('heading', { level: 2, name: 'Refunds in 2026' }).waitFor();
  await page.getByText(/^Version 2 · updated /).waitFor();
  await visitCheck(page, 'en-refund-policy-v2');
});

test('the Documentation page in Chinese: API reference groups, operations and example comments in Chinese', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'cn', demo, { redirect: '/cn/documentation' });
  await page.waitForURL(`${server.url}/cn/documentation`);
  const modems = page.getByRole('heading', { level: 3, name: exact(t('cn', 'docs:reference.tags.modems.title')) });
  await modems.waitFor();
  await page.getByText(t('cn', 'docs:reference.tags.modems.description'), { exact: true }).waitFor();
  await page.getByText(t('cn', 'docs:reference.operations.get-api-v1-modems'), { exact: true }).first().waitFor();
  await page.getByText(`# ${t('cn', 'docs:examples.comments.key')}`).first().waitFor();
  const body = await page.locator('main').innerText();
  for (const english of ['Default Response', 'Your ports: list', 'Keys for the customer API', 'Api-Keys']) expect(body).not.toContain(english);
  await visitCheck(page, 'cn-documentation');
});
