// Issue 14, items 7, 12 and 5 as a person sees them: Add Proxies paid by crypto or card says the balance is not used
// (no 'Balance after payment'), the crypto modal names the sandbox BTC rate the amount was locked at, and the bell's
// empty state says what the bell shows. The ticker is unreachable (port 9), as on an offline machine.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { useBrowser, visitCheck } from './support/browser.js';
import { confirmEmail, demo, expectDashboard, newAccount, signIn, signUp } from './support/flows.js';
import { exact, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'payment-effects', env: { RATE_TICKER_URL: 'http://127.0.0.1:9/ticker' } });
const browser = useBrowser();

async function addProxyWith(page: Page, lng: Language, method: 'balance' | 'card' | 'crypto') {
  await page.goto(`${server.url}/${lng}/add-proxy`);
  await page.getByRole('heading', { level: 1, name: exact(t(lng, 'add-proxy:title')) }).waitFor();
  await page.getByRole('radio', { name: exact(t(lng, `add-proxy:method.${method}`)) }).check();
  return (await page.getByTestId('order-total').textContent())!;
}

describe('what each payment method changes', () => {
  test('Add Proxies by crypto and card leaves the balance alone; the crypto modal names the sandbox rate', async () => {
    const { page } = browser;
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');

    await addProxyWith(page, 'en', 'balance');
    await page.getByTestId('balance-after').getByText(t('en', 'payments:effect.balanceAfter')).waitFor();

    const total = await addProxyWith(page, 'en', 'crypto');
    const aside = page.getByRole('complementary', { name: t('en', 'add-proxy:summary.title') });
    await aside.getByTestId('charged-elsewhere').getByText(t('en', 'payments:effect.charged.crypto')).waitFor();
    expect(await aside.getByText(t('en', 'payments:effect.balanceAfter')).count()).toBe(0);
    expect(await aside.getByTestId('balance-untouched').textContent()).toContain(t('en', 'payments:effect.cryptoExtra'));
    await visitCheck(page, 'add-proxy-crypto-balance-untouched');

    await page.getByRole('button', { name: exact(t('en', 'payments:payWith.crypto', { amount: total, coin: t('en', 'payments:coin.btc') })) }).click();
    const modal = page.getByRole('dialog', { name: exact(t('en', 'payments:crypto.title')) });
    await modal.getByTestId('crypto-modal').waitFor({ timeout: 20_000 });
    expect(await modal.getByTestId('crypto-rate').textContent()).toBe(t('en', 'payments:crypto.rateSandbox', { rate: '$100,000.00' }));
    await modal.getByText(t('en', 'payments:crypto.descriptionOrder')).waitFor();
    await visitCheck(page, 'crypto-modal-sandbox-rate');
    await modal.getByRole('button', { name: exact(t('en', 'payments:crypto.cancel')) }).click();
    await modal.waitFor({ state: 'detached' });

    await page.goto(`${server.url}/ru/add-proxy`);
    await addProxyWith(page, 'ru', 'card');
    const ruAside = page.getByRole('complementary', { name: t('ru', 'add-proxy:summary.title') });
    await ruAside.getByTestId('charged-elsewhere').getByText(t('ru', 'payments:effect.charged.card')).waitFor();
    expect(await ruAside.getByText(t('ru', 'payments:effect.balanceAfter')).count()).toBe(0);
    await visitCheck(page, 'add-proxy-card-ru');
  });

  test('a new customer\'s bell says what it will show', async () => {
    const { page } = browser;
    const account = newAccount('bell');
    await signUp(page, server.url, 'ru', account);
    await confirmEmail(page, server.url, 'ru', account.email);
    await signIn(page, server.url, 'ru', account);
    await expectDashboard(page, server.url, 'ru', account.name);
    await page.getByRole('button', { name: exact(t('ru', 'notifications-ui:label')) }).click();
    await page.getByText(t('ru', 'notifications-ui:emptyHint')).waitFor();
    await visitCheck(page, 'bell-empty-ru');
  });
});
