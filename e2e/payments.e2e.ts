// Issue 4, "Done when": in a real browser on the sandbox defaults a person tops up by card, by PayPal and by each
// coin, buys ports by each method, renews a port by crypto with a basket, and the balance, invoices and ports agree.
// Every page and dialog visited is screenshotted and checked with axe; the dialogs also on a phone and in ru/cn.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Port } from '../packages/shared/src/schemas/catalog.js';
import type { Invoice } from '../packages/shared/src/schemas/payments.js';
import { formatUsd } from '../apps/web/src/lib/money.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, startsWith, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

// The BTC/USD rate comes from a ticker; offline there is none, so a fake blockchain.info ticker on 127.0.0.1
// answers (registered before the server so it is listening, on a port it holds, when the server starts and reads
// RATE_TICKER_URL).
let tickerPort = 0;
let ticker: Server | undefined;
beforeAll(async () => {
  ticker = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ USD: { last: 64250.5, buy: 64250.5, sell: 64250.5, symbol: '$' } }));
  });
  await new Promise<void>((resolve) => ticker!.listen(0, '127.0.0.1', resolve));
  tickerPort = (ticker.address() as AddressInfo).port;
});
afterAll(async () => { await new Promise((resolve) => ticker?.close(resolve)); });

const server = useServer({ name: 'payments', env: { get RATE_TICKER_URL() { return `http://127.0.0.1:${tickerPort}/ticker`; } } });
const browser = useBrowser();

async function api<T>(page: Page, path: string): Promise<T> {
  const response = await page.context().request.get(`${server.url}/api/v1${path}`);
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}
const balanceOf = async (page: Page) => BigInt((await api<{ usdt: { balance: string } }>(page, '/account')).usdt.balance);
const invoicesOf = async (page: Page) => (await api<{ data: Invoice[] }>(page, '/invoices')).data;
const portsOf = (page: Page) => api<Port[]>(page, '/modems');
const dollars = (n: number) => BigInt(n) * 1_000_000n;
const button = (page: Page, text: string) => page.getByRole('button', { name: exact(text) });
const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: exact(title) });
const headerBalance = (page: Page) => page.locator('.balance-badge__amount');

/** Toasts close after 3 s in the shell; wait so screenshots and axe see the page, not a toast. */
async function toastsGone(page: Page) {
  await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 10_000 }).toBe(0);
}

async function signInDemo(page: Page, lng: Language = 'en') {
  await signIn(page, server.url, lng, demo);
  await expectDashboard(page, server.url, lng, 'Demo Customer');
}

/** Opens Add Funds from the header and chooses method, coin and amount (a preset, or a custom text). */
async function openAddFunds(page: Page, lng: Language, method: 'crypto' | 'card' | 'paypal', amount: number | string, coin?: 'btc' | 'usdt', shotName?: string) {
  await page.getByRole('button', { name: exact(t(lng, 'shell:addFunds')) }).click();
  const box = dialog(page, t(lng, 'add-funds:title'));
  await box.waitFor();
  await box.getByRole('radio', { name: exact(t(lng, `add-funds:method.${method}`)) }).check();
  if (coin) await box.getByRole('radio', { name: exact(t(lng, `add-funds:coin.${coin}`)) }).check();
  if (typeof amount === 'number') await box.getByRole('radio', { name: exact(`$${amount}`) }).check();
  else {
    await box.getByRole('radio', { name: exact(t(lng, 'add-funds:amount.custom')) }).check();
    await box.getByLabel(t(lng, 'add-funds:amount.customLabel')).fill(amount);
  }
  if (shotName) await visitCheck(page, shotName);
  await box.getByRole('button', { name: exact(t(lng, 'add-funds:continue')) }).click();
}

async function payByCard(page: Page, lng: Language, number: string, amountText: string, shotName?: string) {
  const box = page.getByRole('dialog', { name: exact(t(lng, 'payments:card.oneTimeTitle')) });
  await box.waitFor();
  await box.getByText(t(lng, 'payments:card.sandboxNote')).waitFor();
  await box.getByLabel(t(lng, 'payments:card.number')).fill(number);
  await box.getByLabel(t(lng, 'payments:card.expiry')).fill('1230');
  await box.getByLabel(t(lng, 'payments:card.cvc')).fill('123');
  if (shotName) await visitCheck(page, shotName);
  await box.getByRole('button', { name: exact(t(lng, 'payments:card.payNow', { amount: amountText })) }).click();
}

/** The crypto modal for a new payment: checks what it shows, then completes it with the sandbox control. */
async function payByCrypto(page: Page, lng: Language, expect_: { product: string | RegExp; send: RegExp }, shotName?: string) {
  const box = dialog(page, t(lng, 'payments:crypto.title'));
  await box.getByTestId('crypto-modal').waitFor({ timeout: 20_000 });
  const product = (await box.getByTestId('crypto-product').textContent())!;
  if (typeof expect_.product === 'string') expect(product).toBe(expect_.product);
  else expect(product).toMatch(expect_.product);
  expect(await box.getByTestId('crypto-send').textContent()).toMatch(expect_.send);
  await box.getByText(t(lng, 'payments:crypto.status')).waitFor();
  await expect.poll(() => box.getByTestId('deposit-qr').locator('img').count()).toBe(1);
  if (shotName) await visitCheck(page, shotName);
  await button(page, t(lng, 'payments:crypto.simulate')).click();
  await box.waitFor({ state: 'detached', timeout: 20_000 });
}

/**
 * Add Proxies with the first offer (a dedicated port, or a shared one, whose modems are not the dedicated ones') and
 * a payment method chosen; returns the order total as shown ('$12.00').
 */
async function orderWith(page: Page, method: 'card' | 'paypal' | 'crypto', type: 'dedicated' | 'shared' = 'dedicated') {
  await page.goto(`${server.url}/en/add-proxy`);
  await page.getByRole('heading', { level: 1, name: exact(t('en', 'add-proxy:title')) }).waitFor();
  if (type === 'shared') await page.getByRole('radio', { name: startsWith(t('en', 'add-proxy:type.shared')) }).check();
  await expect.poll(() => page.getByTestId('availability').textContent()).toMatch(/^\d+ available$/);
  await page.getByRole('radio', { name: exact(t('en', `add-proxy:method.${method}`)) }).check();
  return (await page.getByTestId('order-total').textContent())!;
}

describe('money in: add funds, pay, renew', () => {
  test('save card 4242 on the Account page, buy a port with it (balance, ports and invoice agree), remove it', async () => {
    // First on the fresh server: a card subscription saves its card too (as in Stripe), and this starts with none.
    const { page } = browser;
    await signInDemo(page);
    const savedCardsOf = async () => (await api<{ data: unknown[] }>(page, '/payment/stripe/cards')).data;
    const section = page.getByTestId('saved-cards');
    const visa = 'Visa ••••\u00a04242'; // as the app prints it: no line break before the digits
    // An accessible name reads the no-break space as a space.
    const named = (re: RegExp) => new RegExp(re.source.replace(/\u00a0/g, '\\s'));

    // ---- empty, then add a card through the same sandbox form as the card modal ----
    await page.goto(`${server.url}/en/account`);
    await section.getByText(t('en', 'payments:savedCards.empty')).waitFor();
    await visitCheck(page, 'account-saved-cards-empty');
    await section.getByRole('button', { name: exact(t('en', 'payments:savedCards.add')) }).click();
    const add = dialog(page, t('en', 'payments:savedCards.addTitle'));
    await add.getByLabel(t('en', 'payments:card.number')).fill('4000 0000 0000 0002');
    await add.getByLabel(t('en', 'payments:card.expiry')).fill('1230');
    await add.getByLabel(t('en', 'payments:card.cvc')).fill('123');
    await add.getByRole('button', { name: exact(t('en', 'payments:savedCards.save')) }).click();
    // A declined card stays in the dialog, in the reader's language, with what to do.
    await add.getByRole('alert').getByText(t('en', 'payments:savedCards.addFailedHint'), { exact: false }).waitFor();
    expect(await add.getByRole('alert').textContent()).toContain(t('en', 'errors:CARD_DECLINED'));
    await visitCheck(page, 'account-add-card-declined');
    await add.getByLabel(t('en', 'payments:card.number')).fill('4242 4242 4242 4242');
    await add.getByRole('button', { name: exact(t('en', 'payments:savedCards.save')) }).click();
    await add.waitFor({ state: 'detached' });
    await expect.poll(() => section.getByTestId('saved-card').count()).toBe(1);
    expect(await section.getByTestId('saved-card').textContent()).toContain(visa);
    expect(await savedCardsOf()).toHaveLength(1);
    await toastsGone(page);
    await visitCheck(page, 'account-saved-cards');

    // ---- buy a port paying with the saved card: no card typed, same success path as a one-time card payment ----
    const start = await balanceOf(page);
    const portsBefore = (await portsOf(page)).length;
    const invoicesBefore = (await invoicesOf(page)).length;
    // A shared port: the other tests buy the first offer's dedicated modems, all of them.
    const total = await orderWith(page, 'card', 'shared');
    await page.getByRole('button', { name: exact(t('en', 'payments:payWith.card', { amount: total })) }).click();
    const modal = dialog(page, t('en', 'payments:card.oneTimeTitle'));
    const savedChoice = modal.getByRole('radio', { name: named(startsWith(t('en', 'payments:savedCards.payWith', { card: visa }))) });
    await savedChoice.waitFor();
    expect(await savedChoice.isChecked()).toBe(true);
    expect(await modal.getByLabel(t('en', 'payments:card.number')).count()).toBe(0);
    await visitCheck(page, 'payments-saved-card-modal');
    await page.setViewportSize(phoneViewport);
    await visitCheck(page, 'payments-saved-card-modal-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    // Choosing a new card brings the card form back; the saved card is one arrow key away.
    await modal.getByRole('radio', { name: exact(t('en', 'payments:savedCards.payWithNew')) }).check();
    await modal.getByLabel(t('en', 'payments:card.number')).waitFor();
    await savedChoice.check();
    await modal.getByRole('button', { name: exact(t('en', 'payments:card.payNow', { amount: total })) }).click();
    await page.waitForURL(`${server.url}/en/proxies`);
    await page.getByTestId('payment-banner').waitFor();
    await expect.poll(async () => (await portsOf(page)).length).toBe(portsBefore + 1);
    // Paid from outside: credited and debited by the same amount; one invoice for the payment.
    expect(await balanceOf(page)).toBe(start);
    const invoices = await invoicesOf(page);
    expect(invoices.length).toBe(invoicesBefore + 1);
    expect(formatUsd(invoices[0]!.amount)).toBe(total);

    // ---- on a phone, in Russian: the list and the confirmation ----
    await page.setViewportSize(phoneViewport);
    await page.goto(`${server.url}/ru/account`);
    await section.getByTestId('saved-card').waitFor();
    await visitCheck(page, 'account-saved-cards-ru-phone');
    await section.getByRole('button', { name: named(exact(t('ru', 'payments:savedCards.removeLabel', { card: visa }))) }).click();
    const confirm = page.getByRole('dialog', { name: named(exact(t('ru', 'payments:savedCards.removeTitle', { card: visa }))) });
    await confirm.waitFor();
    await visitCheck(page, 'account-remove-card-ru-phone');
    await confirm.getByRole('button', { name: exact(t('ru', 'payments:savedCards.remove')) }).click();
    await confirm.waitFor({ state: 'detached' });
    await section.getByText(t('ru', 'payments:savedCards.empty')).waitFor();
    expect(await savedCardsOf()).toEqual([]);
  });

  test('top up by card (declined, then 4242), PayPal, Bitcoin and USDT; balance, header and invoices agree', async () => {
    const { page } = browser;
    await signInDemo(page);
    const start = await balanceOf(page);
    const invoicesBefore = (await invoicesOf(page)).length;

    // ---- card: a declined card is an error in the form and a toast, and nothing is credited; 4242 succeeds ----
    await openAddFunds(page, 'en', 'card', 25, undefined, 'payments-add-funds');
    await payByCard(page, 'en', '4000 0000 0000 0002', '$25.00', 'payments-card-modal');
    await page.getByTestId('card-error').getByText(t('en', 'errors:CARD_DECLINED')).waitFor();
    await page.locator('[data-sonner-toast]').getByText(t('en', 'errors:CARD_DECLINED')).waitFor();
    expect(await balanceOf(page)).toBe(start);
    await payByCard(page, 'en', '4242 4242 4242 4242', '$25.00');
    await page.waitForURL(`${server.url}/en/proxies`);
    await page.getByTestId('payment-banner').waitFor();
    await expect.poll(() => balanceOf(page)).toBe(start + dollars(25));
    await expect.poll(() => headerBalance(page).textContent()).toBe(formatUsd(start + dollars(25)));
    await toastsGone(page);
    await visitCheck(page, 'payments-card-banner');

    // ---- PayPal (sandbox): confirmation step, then /thank-you-for-order ----
    await openAddFunds(page, 'en', 'paypal', 100);
    const paypal = dialog(page, t('en', 'payments:paypal.title'));
    await paypal.getByTestId('paypal-sandbox').waitFor();
    expect(await paypal.getByTestId('paypal-amount').textContent()).toBe('$100.00');
    await visitCheck(page, 'payments-paypal-sandbox');
    await button(page, t('en', 'payments:paypal.sandboxConfirm')).click();
    await page.waitForURL(new RegExp(`^${server.url}/thank-you-for-order\\?order=[0-9a-f-]{36}$`));
    await page.getByRole('heading', { level: 1, name: exact(t('en', 'payments:thankYou.title')) }).waitFor();
    await visitCheck(page, 'payments-thank-you');
    expect(await balanceOf(page)).toBe(start + dollars(125));
    await page.getByRole('link', { name: exact(t('en', 'payments:thankYou.toProxies')) }).click();
    await page.waitForURL(`${server.url}/en/proxies`);

    // ---- Bitcoin: the modal shows the dollars and the BTC equivalent; closing it leaves the pending indicator ----
    await openAddFunds(page, 'en', 'crypto', 50, 'btc');
    const crypto = dialog(page, t('en', 'payments:crypto.title'));
    await crypto.getByTestId('crypto-modal').waitFor({ timeout: 20_000 });
    expect(await crypto.getByTestId('crypto-send').textContent()).toMatch(/^Send \$50\.00 \(0\.\d{6} BTC\) to this address$/);
    const address = (await crypto.getByTestId('deposit-address').textContent())!;
    const account = await api<{ btc: { address: string } }>(page, '/account');
    expect(address).toBe(account.btc.address);
    await visitCheck(page, 'payments-crypto-btc');
    await page.keyboard.press('Escape');
    await page.getByTestId('pending-crypto-adding').waitFor();
    await page.getByTestId('pending-crypto-indicator').waitFor({ timeout: 15_000 });
    // The pending payment is listed, with its product and amount.
    await page.goto(`${server.url}/en/pending-payments`);
    await page.getByTestId('pending-row').first().waitFor();
    expect(await page.getByTestId('pending-row').first().textContent()).toContain('$50.00');
    await visitCheck(page, 'payments-pending-list');
    await page.getByTestId('pending-crypto-indicator').click();
    await crypto.getByTestId('crypto-modal').waitFor();
    await button(page, t('en', 'payments:crypto.simulate')).click();
    await crypto.waitFor({ state: 'detached' });
    await expect.poll(() => headerBalance(page).textContent()).toBe(formatUsd(start + dollars(175)));

    // ---- USDT, custom amount: the amount in USDT ----
    await openAddFunds(page, 'en', 'crypto', '12.50', 'usdt');
    await payByCrypto(page, 'en', { product: t('en', 'payments:product.topup'), send: /^Send 12\.50 USDT to this address$/ }, 'payments-crypto-usdt');
    await expect.poll(() => balanceOf(page)).toBe(start + dollars(175) + 12_500_000n);

    // ---- a cancelled crypto payment credits nothing ----
    await openAddFunds(page, 'en', 'crypto', 25, 'usdt');
    await dialog(page, t('en', 'payments:crypto.title')).getByTestId('crypto-modal').waitFor({ timeout: 20_000 });
    await button(page, t('en', 'payments:crypto.cancel')).click();
    await dialog(page, t('en', 'payments:crypto.title')).waitFor({ state: 'detached' });
    expect((await api<{ data: unknown | null }>(page, '/pending-crypto-payment-active')).data).toBeNull();

    // ---- invoices: one numbered document per completed payment (receipts for these top-ups), printable page, real PDF ----
    const invoices = await invoicesOf(page);
    expect(invoices.length).toBe(invoicesBefore + 4);
    const total = invoices.slice(0, 4).reduce((sum, i) => sum + BigInt(i.amount), 0n);
    expect(total).toBe(dollars(175) + 12_500_000n);
    await page.goto(`${server.url}/en/invoices`);
    await expect.poll(() => page.getByTestId('invoice-row').count()).toBe(invoices.length);
    await visitCheck(page, 'payments-invoices');
    await page.getByRole('link', { name: exact(invoices[0]!.number) }).click();
    await page.getByTestId('invoice-document').waitFor();
    expect(await page.getByTestId('invoice-total').textContent()).toBe(`${formatUsd(invoices[0]!.amount)} USD`);
    // A top-up is acknowledged by a receipt, and the document says it is not an invoice (decision 038).
    expect(invoices.slice(0, 4).map((i) => i.document)).toEqual(['receipt', 'receipt', 'receipt', 'receipt']);
    await page.getByRole('heading', { level: 2, name: t('en', 'payments:invoices.receiptTitle', { number: invoices[0]!.number }) }).waitFor();
    await page.getByText(t('en', 'payments:invoices.receiptNote'), { exact: true }).waitFor();
    await visitCheck(page, 'payments-invoice');
    // The download link prints the PDF in the language the dashboard shows.
    const pdfHref = await page.getByTestId('invoice-document').locator('..').getByRole('link', { name: exact(t('en', 'payments:invoices.downloadPdf')) }).getAttribute('href');
    expect(pdfHref).toBe(`/api/v1/invoices/${invoices[0]!._id}.pdf?lng=en`);
    const pdf = await page.context().request.get(`${server.url}${pdfHref}`);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('buy a port by card (one-time and monthly subscription), by PayPal and by crypto; renew it by crypto with a basket', async () => {
    const { page } = browser;
    await signInDemo(page);
    const start = await balanceOf(page);
    const portsBefore = (await portsOf(page)).length;

    // ---- card ----
    let total = await orderWith(page, 'card');
    await page.getByRole('button', { name: exact(t('en', 'payments:payWith.card', { amount: total })) }).click();
    await payByCard(page, 'en', '4242424242424242', total);
    await page.waitForURL(`${server.url}/en/proxies`);
    await expect.poll(async () => (await portsOf(page)).length).toBe(portsBefore + 1);

    // ---- card, monthly subscription: offered for a month tariff with recurring; 'Subscribe Now', full page load ----
    await page.goto(`${server.url}/en/add-proxy`);
    await page.getByRole('radio', { name: new RegExp(`/ ${t('en', 'add-proxy:period.month')}`) }).first().check();
    await expect.poll(() => page.getByTestId('availability').textContent()).toMatch(/^\d+ available$/);
    await page.getByRole('radio', { name: exact(t('en', 'add-proxy:method.card')) }).check();
    total = (await page.getByTestId('order-total').textContent())!;
    await page.getByRole('button', { name: exact(t('en', 'payments:payWith.card', { amount: total })) }).click();
    const typed = dialog(page, t('en', 'payments:card.chooseType'));
    await typed.waitFor();
    await typed.getByRole('button', { name: exact(t('en', 'payments:card.typeSubscribe')) }).click();
    await typed.getByLabel(t('en', 'payments:card.number')).fill('4242424242424242');
    await typed.getByLabel(t('en', 'payments:card.expiry')).fill('1230');
    await typed.getByLabel(t('en', 'payments:card.cvc')).fill('123');
    await visitCheck(page, 'payments-card-subscription');
    await typed.getByRole('button', { name: exact(t('en', 'payments:card.subscribeNow')) }).click();
    await page.waitForURL(`${server.url}/en/proxies`);
    await page.getByTestId('payment-banner').waitFor();
    await expect.poll(async () => (await portsOf(page)).length).toBe(portsBefore + 2);

    // ---- PayPal ----
    total = await orderWith(page, 'paypal');
    await page.getByRole('button', { name: exact(t('en', 'payments:payWith.paypal', { amount: total })) }).click();
    await dialog(page, t('en', 'payments:paypal.title')).getByTestId('paypal-sandbox').waitFor();
    await button(page, t('en', 'payments:paypal.sandboxConfirm')).click();
    await page.waitForURL(new RegExp(`^${server.url}/thank-you-for-order\\?order=[0-9a-f-]{36}$`));
    await expect.poll(async () => (await portsOf(page)).length).toBe(portsBefore + 3);

    // ---- crypto (Bitcoin) ----
    total = await orderWith(page, 'crypto');
    await visitCheck(page, 'payments-add-proxy-crypto');
    await page.getByRole('button', { name: exact(t('en', 'payments:payWith.crypto', { amount: total, coin: t('en', 'payments:coin.btc') })) }).click();
    await payByCrypto(page, 'en', { product: /^4G .+ - 1x port$/, send: /BTC\) to this address$/ }, 'payments-buy-crypto');
    await page.waitForURL(`${server.url}/en/proxies`);
    await expect.poll(async () => (await portsOf(page)).length).toBe(portsBefore + 4);
    // Paid from outside: the balance is credited and debited by the same amount.
    expect(await balanceOf(page)).toBe(start);

    // ---- renew one port by crypto (USDT) with a basket ----
    const port = (await portsOf(page)).at(-1)!;
    await page.goto(`${server.url}/en/billing-renewals`);
    await page.getByRole('heading', { level: 1, name: exact(t('en', 'billing:title')) }).waitFor();
    await page.getByRole('checkbox', { name: new RegExp(port.modem_name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).check();
    await page.getByRole('radio', { name: exact(t('en', 'payments:method.crypto')) }).check();
    await page.getByRole('radio', { name: exact(t('en', 'payments:coin.usdt')) }).check();
    const renewTotal = (await page.getByTestId('renewal-total').textContent())!;
    await visitCheck(page, 'payments-billing-crypto');
    await page.getByRole('button', { name: exact(t('en', 'payments:payWith.crypto', { amount: renewTotal, coin: t('en', 'payments:coin.usdt') })) }).click();
    await payByCrypto(page, 'en', {
      product: t('en', 'payments:product.renewal', { names: port.modem_name }),
      send: new RegExp(`^Send ${renewTotal.slice(1).replace('.', '\\.')} USDT to this address$`),
    }, 'payments-renew-crypto');
    await expect.poll(async () => (await portsOf(page)).find((p) => p._id === port._id)!.expiresAt > port.expiresAt, { timeout: 15_000 }).toBe(true);
    expect(await balanceOf(page)).toBe(start);
  });

  test('the dialogs on a phone, in Russian and in Chinese', async () => {
    const { page } = browser;
    await page.setViewportSize(phoneViewport);
    for (const lng of ['ru', 'cn'] as const) {
      await signInDemo(page, lng);
      await openAddFunds(page, lng, 'crypto', 25, 'btc', `payments-${lng}-phone-add-funds`);
      await dialog(page, t(lng, 'payments:crypto.title')).getByTestId('crypto-modal').waitFor({ timeout: 20_000 });
      await expect.poll(() => page.getByTestId('deposit-qr').locator('img').count()).toBe(1);
      await visitCheck(page, `payments-${lng}-phone-crypto`);
      await button(page, t(lng, 'payments:crypto.cancel')).click();
      await toastsGone(page);
      await openAddFunds(page, lng, 'card', 50);
      await page.getByRole('dialog', { name: exact(t(lng, 'payments:card.oneTimeTitle')) }).waitFor();
      await visitCheck(page, `payments-${lng}-phone-card`);
      await page.keyboard.press('Escape');
      await page.goto(`${server.url}/${lng}/invoices`);
      await page.getByRole('heading', { level: 1, name: exact(t(lng, 'common:nav.invoices')) }).waitFor();
      await visitCheck(page, `payments-${lng}-phone-invoices`);
      await page.goto(`${server.url}/${lng}/pending-payments`);
      await page.getByRole('heading', { level: 1, name: exact(t(lng, 'common:nav.pendingPayments')) }).waitFor();
      await visitCheck(page, `payments-${lng}-phone-pending`);
      // Leave the page first: a poll without the cookie would navigate by itself and abort the next sign-in's goto.
      await page.goto('about:blank');
      await page.context().clearCookies();
    }
  });
});
