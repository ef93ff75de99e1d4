// Issue 27, item 3: after PayPal the customer lands back on /thank-you-for-order?order=<id> in the language of the
// page they left, and reads that order's true state: "being confirmed" only while PayPal's IPN has not credited it,
// updating by itself to "credited" when it does; a cancelled payment said plainly with what to do, under its own
// heading instead of "Thank you for your order!" (issue 27, item 12's last note). The card
// payment banner says "credited" for money already credited. Sandbox PayPal ("Simulate payment"), en and ru, axe,
// desktop and phone screenshots.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { PendingPayment } from '../packages/shared/src/schemas/payments.js';
import { apiCall } from './support/api.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'paypal-return' });
const browser = useBrowser();

const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: exact(title) });

/** Opens Add Funds, chooses PayPal and a preset amount, and waits for the sandbox PayPal step; answers its order id. */
async function startPayPal(page: Page, lng: Language, amount: number): Promise<string> {
  await page.getByRole('button', { name: exact(t(lng, 'shell:addFunds')) }).click();
  const box = dialog(page, t(lng, 'add-funds:title'));
  await box.getByRole('radio', { name: exact(t(lng, 'add-funds:method.paypal')) }).check();
  await box.getByRole('radio', { name: exact(`$${amount}`) }).check();
  await box.getByRole('button', { name: exact(t(lng, 'add-funds:continue')) }).click();
  await dialog(page, t(lng, 'payments:paypal.title')).getByTestId('paypal-sandbox').waitFor();
  const pending = await apiCall<{ data: PendingPayment[] }>(page.context().request, server.url, 'GET', '/pending-payments');
  const order = pending.data.find((p) => p.provider === 'paypal' && p.amount === String(amount * 1_000_000));
  expect(order, 'the pending PayPal payment').toBeDefined();
  return order!._id;
}

const outcome = (page: Page) => page.getByTestId('thank-you').locator('[data-outcome]');

describe('coming back from PayPal', () => {
  test('en: "Simulate payment" lands on the return page of that order, which says it was credited', async () => {
    const { page } = browser;
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');
    const order = await startPayPal(page, 'en', 25);
    await page.getByRole('button', { name: exact(t('en', 'payments:paypal.sandboxConfirm')) }).click();
    await page.waitForURL(`${server.url}/thank-you-for-order?order=${order}`);
    await page.getByRole('heading', { level: 2, name: exact(t('en', 'payments:outcome.credited.title')) }).waitFor();
    expect(await outcome(page).getAttribute('data-outcome')).toBe('credited');
    expect(await outcome(page).textContent()).toContain(t('en', 'payments:outcome.credited.text', { amount: '$25.00' }));
    expect(await page.textContent('main')).not.toContain(t('en', 'payments:outcome.confirming.title'));
    await visitCheck(page, 'paypal-return-credited-en');
    await page.setViewportSize(phoneViewport);
    await visitCheck(page, 'paypal-return-credited-en-phone');
  });

  test('ru: back before the IPN it says "being confirmed", then "credited" by itself once the IPN books it; a cancelled one says so', async () => {
    const { page } = browser;
    await signIn(page, server.url, 'ru', demo);
    await expectDashboard(page, server.url, 'ru', 'Demo Customer');
    const order = await startPayPal(page, 'ru', 50);
    // PayPal sends the customer back before its IPN has reached us.
    await page.goto(`${server.url}/thank-you-for-order?order=${order}`);
    await page.getByRole('heading', { level: 1, name: exact(t('ru', 'payments:thankYou.title')) }).waitFor();
    await page.getByRole('heading', { level: 2, name: exact(t('ru', 'payments:outcome.confirming.title')) }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    await visitCheck(page, 'paypal-return-confirming-ru');
    await page.setViewportSize(phoneViewport);
    await visitCheck(page, 'paypal-return-confirming-ru-phone');

    // The IPN arrives (the sandbox's "Simulate payment" books it as PayPal's would): the page turns to "credited".
    await apiCall(page.context().request, server.url, 'POST', `/pending-payments/${order}/simulate`);
    await page.getByRole('heading', { level: 2, name: exact(t('ru', 'payments:outcome.credited.title')) }).waitFor();
    expect(await outcome(page).textContent()).toContain(t('ru', 'payments:outcome.credited.text', { amount: '$50.00' }));
    await visitCheck(page, 'paypal-return-credited-ru-phone');

    // A payment the customer cancelled is said to be cancelled, with what to do; never "being confirmed".
    await page.goto(`${server.url}/ru/proxies`);
    const cancelled = await startPayPal(page, 'ru', 100);
    const gone = await page.context().request.fetch(`${server.url}/api/v1/pending-payments/${cancelled}`, { method: 'DELETE', headers: { origin: server.url } });
    expect(gone.status()).toBe(200);
    await page.goto(`${server.url}/thank-you-for-order?order=${cancelled}`);
    // Nothing was paid, so nothing is thanked for: the state is the page's one heading (and its title).
    await page.getByRole('heading', { level: 1, name: exact(t('ru', 'payments:outcome.cancelled.title')) }).waitFor();
    expect(await outcome(page).textContent()).toContain(t('ru', 'payments:outcome.cancelled.text'));
    expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual([t('ru', 'payments:outcome.cancelled.title')]);
    expect(await page.textContent('main')).not.toContain(t('ru', 'payments:thankYou.title'));
    expect(await page.title()).toContain(t('ru', 'payments:outcome.cancelled.title'));
    await visitCheck(page, 'paypal-return-cancelled-ru-phone');
  });
});

describe('the card payment banner', () => {
  test('says "credited" for a card top-up already credited, never "being confirmed"', async () => {
    const { page } = browser;
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');
    await page.getByRole('button', { name: exact(t('en', 'shell:addFunds')) }).click();
    const box = dialog(page, t('en', 'add-funds:title'));
    await box.getByRole('radio', { name: exact(t('en', 'add-funds:method.card')) }).check();
    await box.getByRole('radio', { name: exact('$25') }).check();
    await box.getByRole('button', { name: exact(t('en', 'add-funds:continue')) }).click();
    const card = dialog(page, t('en', 'payments:card.oneTimeTitle'));
    await card.getByLabel(t('en', 'payments:card.number')).fill('4242 4242 4242 4242');
    await card.getByLabel(t('en', 'payments:card.expiry')).fill('1230');
    await card.getByLabel(t('en', 'payments:card.cvc')).fill('123');
    await card.getByRole('button', { name: exact(t('en', 'payments:card.payNow', { amount: '$25.00' })) }).click();
    await page.waitForURL(`${server.url}/en/proxies`);
    const banner = page.getByTestId('payment-banner');
    await expect.poll(() => banner.getAttribute('data-outcome')).toBe('credited');
    expect(await banner.textContent()).toContain(t('en', 'payments:banner.credited.text'));
    expect(await banner.textContent()).not.toContain(t('en', 'payments:banner.confirming.text'));
  });
});
