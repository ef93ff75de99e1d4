// Issue 14, item 2: an error toast shown while a dialog is open sits above the dialog (a modal <dialog> is in the
// browser's top layer, so a toast region in <body> would be dimmed under its backdrop and inert), and the card form
// says what failed in the dialog itself. Checked with a declined card in Add Funds, in English and in Russian.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { shot, useBrowser, checkA11y } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'dialog-errors' });
const browser = useBrowser();

/** Whether what the browser would hit at the toast's centre is the toast itself (not the dialog's backdrop). */
async function toastOnTop(page: Page, text: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    const toast = [...document.querySelectorAll('[data-sonner-toast]')].find((el) => el.textContent?.includes(wanted));
    if (!toast) return false;
    const box = toast.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    // Not inert either: a screen reader announces only what the open modal dialog contains.
    return !!hit && toast.contains(hit) && !toast.closest('[inert]') && !!toast.closest('dialog[open]');
  }, text);
}

async function declinedTopUp(page: Page, lng: Language) {
  await page.getByRole('button', { name: exact(t(lng, 'shell:addFunds')) }).click();
  const funds = page.getByRole('dialog', { name: exact(t(lng, 'add-funds:title')) });
  await funds.getByRole('radio', { name: exact(t(lng, 'add-funds:method.card')) }).check();
  await funds.getByRole('radio', { name: exact('$50') }).check();
  await funds.getByRole('button', { name: exact(t(lng, 'add-funds:continue')) }).click();

  const card = page.getByRole('dialog', { name: exact(t(lng, 'payments:card.oneTimeTitle')) });
  await card.waitFor();
  await card.getByLabel(t(lng, 'payments:card.number')).fill('4000 0000 0000 0002');
  await card.getByLabel(t(lng, 'payments:card.expiry')).fill('1230');
  await card.getByLabel(t(lng, 'payments:card.cvc')).fill('123');
  await card.getByRole('button', { name: exact(t(lng, 'payments:card.payNow', { amount: '$50.00' })) }).click();

  const declined = t(lng, 'errors:CARD_DECLINED');
  // In the form, as an alert…
  await card.getByRole('alert').filter({ hasText: declined }).waitFor();
  // …and as a toast that is drawn above the dialog and its backdrop.
  await page.locator('[data-sonner-toast]', { hasText: declined }).first().waitFor();
  await expect.poll(() => toastOnTop(page, declined), { timeout: 5_000 }).toBe(true);
  await shot(page, `${lng}-card-declined-in-dialog`);
  await checkA11y(page, `${lng} declined card`);
  return card;
}

test('a declined card: the toast is above the card dialog and the dialog says it too (en, then ru)', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  const card = await declinedTopUp(page, 'en');

  // Closing the dialog brings later toasts back to the page.
  await page.keyboard.press('Escape');
  await card.waitFor({ state: 'detached' });
  expect(await page.evaluate(() => document.querySelector('[data-sonner-toaster]')?.closest('dialog') ?? null)).toBeNull();

  await page.goto(`${server.url}/ru/dashboard`);
  await expectDashboard(page, server.url, 'ru', 'Demo Customer');
  await declinedTopUp(page, 'ru');
});
