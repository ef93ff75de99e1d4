// Issue 27, item 1, in a real browser on the sandbox card provider: a customer subscribes to a monthly port by card,
// sees the subscription (ports, amount, card, next charge, status) on Billing & Renewals and on the port card, cancels
// it at the period's end and resumes it; an operator sees it in the console, overall and on the customer's page, and
// ends it. Screenshots and axe of the subscriptions in en, ru and cn, on desktop and phone.
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import type { Subscription } from '../packages/shared/src/schemas/subscriptions.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'subscriptions' });
const browser = useBrowser();
const operator = { email: 'subs-ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const subscriptionsOf = async (page: Page) =>
  ((await (await page.request.get(`${server.url}/api/v1/subscriptions`)).json()) as { data: Subscription[] }).data;
const day = (iso: string, lng: Language) => new Intl.DateTimeFormat(lng === 'cn' ? 'zh-CN' : lng, { dateStyle: 'medium' }).format(new Date(iso));

/** Add Proxies: a monthly dedicated port, by card, as a subscription, with the sandbox's 4242 card. */
async function subscribe(page: Page) {
  await page.goto(`${server.url}/en/add-proxy`);
  await page.getByRole('radio', { name: new RegExp(`/ ${t('en', 'add-proxy:period.month')}`) }).first().check();
  await expect.poll(() => page.getByTestId('availability').textContent()).toMatch(/^\d+ available$/);
  await page.getByRole('radio', { name: exact(t('en', 'add-proxy:method.card')) }).check();
  const total = (await page.getByTestId('order-total').textContent())!;
  await page.getByRole('button', { name: exact(t('en', 'payments:payWith.card', { amount: total })) }).click();
  const typed = page.getByRole('dialog', { name: exact(t('en', 'payments:card.chooseType')) });
  await typed.waitFor();
  await typed.getByRole('button', { name: exact(t('en', 'payments:card.typeSubscribe')) }).click();
  await typed.getByLabel(t('en', 'payments:card.number')).fill('4242424242424242');
  await typed.getByLabel(t('en', 'payments:card.expiry')).fill('1230');
  await typed.getByLabel(t('en', 'payments:card.cvc')).fill('123');
  await typed.getByRole('button', { name: exact(t('en', 'payments:card.subscribeNow')) }).click();
  await page.waitForURL(`${server.url}/en/proxies`);
  await expect.poll(async () => (await subscriptionsOf(page)).length).toBe(1);
  return total;
}

test('a customer sees, cancels and resumes a card subscription; the console sees it and ends it', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  const total = await subscribe(page);
  const [sub] = await subscriptionsOf(page);
  expect(sub).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, card: { brand: 'visa', last4: '4242' } });

  // ---- the port card says when the card renews it, in place of the auto-renew switch ----
  const line = page.getByTestId('port-subscription');
  await line.waitFor();
  expect(await line.textContent()).toContain(t('en', 'proxies:subscription.next', { amount: total, date: day(sub!.nextChargeAt!, 'en') }));
  await line.scrollIntoViewIfNeeded();
  await visitCheck(page, 'subscriptions-port-card');

  // ---- Billing & Renewals: the subscription in each language, desktop and phone ----
  for (const lng of ['en', 'ru', 'cn'] as const) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/${lng}/billing-renewals`);
    const item = page.getByTestId('subscription');
    await item.waitFor();
    expect(await page.getByTestId('subscription-status').textContent()).toBe(t(lng, 'billing:subscriptions.status.active'));
    expect(await page.getByTestId('subscription-next').textContent()).toBe(day(sub!.nextChargeAt!, lng));
    await item.getByText('Visa ••••\u00a04242').waitFor();
    await visitCheck(page, `subscriptions-billing-${lng}`);
    await page.setViewportSize(phoneViewport);
    await item.scrollIntoViewIfNeeded();
    await visitCheck(page, `subscriptions-billing-${lng}-phone`);
  }

  // ---- cancel at the period's end, then resume, by keyboard-reachable buttons ----
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/en/billing-renewals`);
  const ports = sub!.ports.map((p) => p.name).join(', ');
  await page.getByRole('button', { name: exact(t('en', 'billing:subscriptions.cancelFor', { ports })) }).click();
  const confirm = page.getByRole('dialog', { name: exact(t('en', 'billing:subscriptions.cancelTitle')) });
  await confirm.getByText(t('en', 'billing:subscriptions.cancelText', { date: day(sub!.currentPeriodEnd!, 'en') })).waitFor();
  await visitCheck(page, 'subscriptions-cancel-dialog');
  await confirm.getByRole('button', { name: exact(t('en', 'billing:subscriptions.cancelConfirm')) }).click();
  const ending = t('en', 'billing:subscriptions.status.ending', { date: day(sub!.currentPeriodEnd!, 'en') });
  await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe(ending);
  expect(await page.getByTestId('subscription-next').textContent()).toBe(t('en', 'billing:subscriptions.noCharge'));
  expect((await subscriptionsOf(page))[0]).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
  await visitCheck(page, 'subscriptions-billing-ending');
  await page.goto(`${server.url}/en/proxies`);
  expect(await page.getByTestId('port-subscription').textContent()).toContain(t('en', 'proxies:subscription.ending', { date: day(sub!.currentPeriodEnd!, 'en') }));

  await page.goto(`${server.url}/en/billing-renewals`);
  const resume = page.getByRole('button', { name: exact(t('en', 'billing:subscriptions.resumeFor', { ports })) });
  await resume.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe(t('en', 'billing:subscriptions.status.active'));
  expect((await subscriptionsOf(page))[0]).toMatchObject({ cancelAtPeriodEnd: false });

  // ---- the console: all subscriptions, and the customer's page; ending one is audited ----
  const { context: ops, page: opsPage } = await browser.secondContext();
  await signIn(opsPage, server.url, 'en', operator, { redirect: '/en/admin' });
  await opsPage.waitForURL(`${server.url}/en/admin`);
  await opsPage.goto(`${server.url}/en/admin/subscriptions`);
  const table = opsPage.getByTestId('admin-subscriptions');
  await table.getByRole('link', { name: demo.email }).waitFor();
  await visitCheck(opsPage, 'subscriptions-console');
  await table.getByRole('link', { name: demo.email }).click();
  const mine = opsPage.locator('section', { has: opsPage.getByRole('heading', { name: exact(t('en', 'admin:nav.subscriptions')) }) }).getByTestId('admin-subscriptions');
  await mine.getByText(ports).waitFor();
  await mine.getByRole('button', { name: exact(t('en', 'admin:subscriptions.endFor', { email: demo.email, ports })) }).click();
  const end = opsPage.getByRole('dialog', { name: exact(t('en', 'admin:subscriptions.endTitle')) });
  await end.getByLabel(t('en', 'admin:confirm.reason')).fill('Customer asked by phone');
  await end.getByRole('button', { name: exact(t('en', 'admin:subscriptions.end')) }).click();
  await mine.getByText(t('en', 'admin:subscriptions.status.canceled')).waitFor();
  await visitCheck(opsPage, 'subscriptions-console-customer');
  const audit = (await (await opsPage.request.get(`${server.url}/api/v1/admin/audit?action=subscription.cancel`)).json()) as { items: Array<{ targetId: string }> };
  expect(audit.items.map((i) => i.targetId)).toContain(sub!.id);
  await ops.close();

  // The customer sees it ended, and the port card offers auto-renew from the balance again.
  await page.goto(`${server.url}/en/billing-renewals`);
  await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe(t('en', 'billing:subscriptions.status.canceled'));
  await page.goto(`${server.url}/en/proxies`);
  await page.getByRole('switch', { name: t('en', 'proxies:autoRenew.label') }).waitFor();
  expect(await page.getByTestId('port-subscription').count()).toBe(0);
});
