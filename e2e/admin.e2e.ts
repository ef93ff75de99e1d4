// The operator console (issue 6) in a real browser: the first operator comes from the CLI (`npm run admin -- create`,
// run while the server is stopped: PGlite allows one process). The operator adds a country, carrier, tariff, host
// and modems, creates a coupon; a customer in a second browser context buys with it; the operator refunds the
// payment and finds every step in the audit log. Customers never download the console's code; a customer sees 403.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { phoneViewport, shot, useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { exact, languages, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'admin' });
const browser = useBrowser();
const operator = { email: 'ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const a = (key: string, values?: Record<string, string | number>) => t('en', `admin:${key}`, values);
const heading = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: exact(text) });
const dialog = (page: Page) => page.getByRole('dialog');

/** Waits for toasts to close (3 s) so screenshots and axe see the page, not the toast. */
async function toastsGone(page: Page) {
  await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 10_000 }).toBe(0);
}
async function expectToast(page: Page, text: string) {
  await page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();
}

async function signInOperator(page: Page, lng: Language = 'en') {
  await signIn(page, server.url, lng, operator, { redirect: `/${lng}/admin` });
  await page.waitForURL(`${server.url}/${lng}/admin`);
  await heading(page, t(lng, 'admin:nav.overview')).waitFor();
}

async function openConsolePage(page: Page, path: string, titleKey: string, lng: Language = 'en') {
  await page.goto(`${server.url}/${lng}/admin${path}`);
  await heading(page, t(lng, `admin:${titleKey}`)).waitFor();
  await page.waitForLoadState('networkidle');
}


async function usdtBalance(page: Page): Promise<bigint> {
  const response = await page.context().request.get(`${server.url}/api/v1/account`);
  expect(response.status()).toBe(200);
  return BigInt(((await response.json()) as { usdt: { balance: string } }).usdt.balance);
}

describe('who may open the console', () => {
  test('a visitor signs in first; a customer gets 403 and never downloads the console code', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/en/admin/customers`);
    await page.waitForURL(`${server.url}/en/sign-in?redirect=%2Fen%2Fadmin%2Fcustomers`);

    const scripts: string[] = [];
    page.on('request', (request) => { if (request.resourceType() === 'script') scripts.push(request.url()); });
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');
    await page.waitForLoadState('networkidle');
    // The dashboard's chunks: none is the console's, and none carries its code (checked on the built bundle).
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => /\/admin-app-[^/]*\.js$/.test(url))).toEqual([]);
    for (const url of scripts) {
      const body = await (await page.context().request.get(url)).text();
      expect(body.includes('/balance-adjustments') || body.includes('admin-sidebar'), `admin code in ${url}`).toBe(false);
    }

    await page.goto(`${server.url}/en/admin`);
    await heading(page, a('forbidden.title')).waitFor();
    await visitCheck(page, 'admin-403-customer');
  });
});

describe('running the business', () => {
  test('catalog, modems and a coupon; a customer buys with it; refund; every step in the audit log', async () => {
    const { page } = browser;
    await signInOperator(page);
    await visitCheck(page, 'admin-overview');

    // Catalog: a country with its names in three languages, a carrier in it, a tariff.
    await openConsolePage(page, '/catalog', 'nav.catalog');
    await page.getByRole('button', { name: exact(a('catalog.addCountry')) }).click();
    await dialog(page).getByLabel(a('fields.isoCode')).fill('NL');
    await dialog(page).getByLabel('English', { exact: true }).fill('Netherlands');
    await dialog(page).getByLabel('Русский', { exact: true }).fill('Нидерланды');
    await dialog(page).getByLabel('中文', { exact: true }).fill('荷兰');
    await visitCheck(page, 'admin-catalog-add-country');
    await dialog(page).getByRole('button', { name: exact(a('catalog.addCountry')) }).click();
    await expectToast(page, a('catalog.saved'));
    await page.getByRole('cell', { name: 'Netherlands', exact: true }).waitFor();

    await page.getByRole('tab', { name: a('catalog.carriers') }).click();
    await page.getByRole('button', { name: exact(a('catalog.addCarrier')) }).click();
    await dialog(page).getByLabel(a('fields.country')).selectOption({ label: 'Netherlands (NL)' });
    await dialog(page).getByLabel(a('fields.name')).fill('KPN');
    await dialog(page).getByRole('button', { name: exact(a('catalog.addCarrier')) }).click();
    await page.getByRole('cell', { name: 'KPN', exact: true }).waitFor();

    await page.getByRole('tab', { name: a('catalog.tariffs') }).click();
    await page.getByRole('button', { name: exact(a('catalog.addTariff')) }).click();
    await dialog(page).getByLabel('English', { exact: true }).fill('Amsterdam dedicated');
    await dialog(page).getByLabel('Русский', { exact: true }).fill('Амстердам, выделенный');
    await dialog(page).getByLabel('中文', { exact: true }).fill('阿姆斯特丹独享');
    await dialog(page).getByLabel(a('fields.priceUsd')).fill('4');
    await dialog(page).getByLabel(a('fields.period')).selectOption('month');
    await dialog(page).getByLabel(a('fields.country')).selectOption({ label: 'Netherlands (NL)' });
    await dialog(page).getByLabel(a('fields.carrier')).selectOption({ label: 'KPN' });
    await dialog(page).getByLabel(a('catalog.recurring')).check();
    await visitCheck(page, 'admin-catalog-add-tariff');
    await dialog(page).getByRole('button', { name: exact(a('catalog.addTariff')) }).click();
    await page.getByRole('cell', { name: 'Amsterdam dedicated', exact: true }).waitFor();

    // Inventory: a host, two modems from CSV (a third row is refused and reported), one more by hand.
    await openConsolePage(page, '/inventory', 'nav.inventory');
    await page.getByRole('tab', { name: a('inventory.hosts') }).click();
    await page.getByRole('button', { name: exact(a('inventory.addHost')) }).click();
    await dialog(page).getByLabel(a('fields.name')).fill('nl1');
    await dialog(page).getByLabel(a('fields.address')).fill('nl1.proxy.test');
    await dialog(page).getByRole('button', { name: exact(a('inventory.addHost')) }).click();
    await page.getByRole('heading', { level: 2, name: /^nl1\b/ }).waitFor();

    await page.getByRole('tab', { name: a('inventory.import') }).click();
    await page.getByLabel(a('inventory.importPaste')).fill([
      'IMEI,host,http_port,socks_port,ext_ip,country,carrier,region,isShared,capacity',
      '356000000009901,nl1,30001,40001,203.0.113.201,NL,KPN,,false,',
      '356000000009902,nl1,30002,40002,203.0.113.202,NL,KPN,,false,',
      '356000000009909,nl1,30009,40009,203.0.113.209,XX,KPN,,false,',
    ].join('\n'));
    await page.getByRole('button', { name: exact(a('inventory.importRun')) }).click();
    await page.getByRole('heading', { name: a('inventory.importReport', { inserted: 2, failed: 1 }) }).waitFor();
    await page.getByRole('row', { name: /356000000009909/ }).getByText(t('en', 'errors:COUNTRY_UNKNOWN')).waitFor();
    await toastsGone(page);
    await visitCheck(page, 'admin-inventory-import-report');

    await page.getByRole('tab', { name: a('inventory.modems') }).click();
    await page.getByRole('button', { name: exact(a('inventory.addModem')) }).click();
    const modemForm = dialog(page);
    await modemForm.getByLabel(a('fields.imei')).fill('356000000009903');
    await modemForm.getByLabel(a('fields.host')).selectOption({ label: 'nl1 (nl1.proxy.test)' });
    await modemForm.getByLabel(a('fields.httpPort')).fill('30003');
    await modemForm.getByLabel(a('fields.socksPort')).fill('40003');
    await modemForm.getByLabel(a('fields.ip')).fill('203.0.113.203');
    await modemForm.getByLabel(a('fields.country')).selectOption({ label: 'Netherlands (NL)' });
    await modemForm.getByLabel(a('fields.carrier')).selectOption({ label: 'KPN' });
    await modemForm.getByRole('button', { name: exact(a('inventory.addModem')) }).click();
    await expectToast(page, a('inventory.modemAdded'));
    await page.getByLabel(a('inventory.searchModems')).fill('3560000000099');
    await expect.poll(() => page.getByRole('row', { name: /35600000000990[123]/ }).count()).toBe(3);

    // A coupon: 50 % off, at most 10 uses.
    await openConsolePage(page, '/coupons', 'nav.coupons');
    await page.getByRole('button', { name: exact(a('coupons.create')) }).click();
    await dialog(page).getByLabel(a('fields.code')).fill('HALF50');
    await dialog(page).getByLabel(a('fields.percent')).fill('50');
    await dialog(page).getByLabel(a('fields.maxUses')).fill('10');
    await dialog(page).getByRole('button', { name: exact(a('coupons.create')) }).click();
    await expectToast(page, a('coupons.created'));
    await page.getByRole('cell', { name: 'HALF50', exact: true }).waitFor();

    // The customer, in a browser of their own, buys the new tariff with the coupon from the balance.
    const customer = await browser.secondContext();
    try {
      await signIn(customer.page, server.url, 'en', demo);
      await expectDashboard(customer.page, server.url, 'en', 'Demo Customer');
      const before = await usdtBalance(customer.page);
      await customer.page.goto(`${server.url}/en/add-proxy`);
      await customer.page.getByLabel(t('en', 'add-proxy:country.label'), { exact: true }).selectOption({ label: 'Netherlands' });
      await customer.page.getByRole('radio', { name: /KPN/ }).check();
      await customer.page.getByRole('radio', { name: /Amsterdam dedicated/ }).check();
      await customer.page.getByLabel(t('en', 'add-proxy:coupon.label'), { exact: true }).fill('HALF50');
      await customer.page.getByRole('button', { name: exact(t('en', 'add-proxy:coupon.apply')) }).click();
      await customer.page.getByText(t('en', 'add-proxy:coupon.appliedPercent', { name: 'HALF50', percent: 50 })).waitFor();
      await customer.page.getByRole('button', { name: exact(t('en', 'add-proxy:pay', { amount: '$2.00' })) }).click();
      await customer.page.waitForURL(`${server.url}/en/proxies?new=**`);
      expect(before - (await usdtBalance(customer.page))).toBe(2_000_000n);

      // The operator finds the payment by its coupon and refunds it with a reason.
      await openConsolePage(page, '/payments', 'nav.payments');
      await page.getByLabel(a('payments.search')).fill('HALF50');
      await page.getByRole('link', { name: new RegExp(`^${a('payments.openNamed', { email: demo.email, date: '' }).trim()}`) }).first().click();
      await heading(page, a('payments.title', { amount: '$2.00' })).waitFor();
      await page.waitForLoadState('networkidle');
      await visitCheck(page, 'admin-payment-detail');
      await page.getByRole('button', { name: exact(a('payments.refund')) }).click();
      await dialog(page).getByLabel(a('confirm.reason')).fill('Customer asked for a refund (e2e)');
      await visitCheck(page, 'admin-payment-refund-dialog');
      await dialog(page).getByRole('button', { name: exact(a('payments.refund')) }).click();
      await expectToast(page, a('payments.refunded'));
      await page.getByRole('cell', { name: 'Customer asked for a refund (e2e)' }).waitFor();
      expect(await usdtBalance(customer.page)).toBe(before);
    } finally {
      await customer.context.close();
    }

    // The customer's page: a credit of $1.50 with a reason (typed in dollars, booked in micro-units), then a message.
    await openConsolePage(page, '/customers', 'nav.customers');
    await page.getByLabel(a('customers.search')).fill('demo@');
    await page.getByRole('link', { name: demo.email, exact: true }).click();
    await heading(page, 'Demo Customer').waitFor();
    await page.waitForLoadState('networkidle');
    await visitCheck(page, 'admin-customer-detail');
    await page.getByRole('button', { name: exact(a('customers.adjust')) }).click();
    await dialog(page).getByLabel(a('customers.amountUsd')).fill('1.50');
    await dialog(page).getByLabel(a('confirm.reason')).fill('Goodwill credit (e2e)');
    await dialog(page).getByText(a('customers.willCredit', { amount: '$1.50' })).waitFor();
    await dialog(page).getByRole('button', { name: exact(a('customers.credit')) }).click();
    await expectToast(page, a('customers.adjusted'));
    // The ledger shows the credit; the audit log (below) keeps the reason.
    await page.getByRole('region', { name: a('customers.ledger') }).getByRole('cell', { name: '$1.50', exact: true }).waitFor();

    await openConsolePage(page, '/notifications', 'nav.notifications');
    await page.getByLabel(a('notifications.findCustomer')).fill('demo@');
    // Choosing a customer replaces the list with "To: …" (a Change button brings it back).
    await page.getByRole('radio', { name: new RegExp(demo.email.replace('.', '\\.')) }).click();
    await page.locator('strong', { hasText: demo.email }).waitFor();
    await page.getByLabel('English', { exact: true }).fill('Maintenance tonight at 23:00 UTC.');
    await page.getByLabel('Русский', { exact: true }).fill('Сегодня в 23:00 UTC технические работы.');
    await page.getByLabel('中文', { exact: true }).fill('今晚 23:00 UTC 进行维护。');
    await page.getByRole('button', { name: exact(a('notifications.send')) }).click();
    await dialog(page).getByRole('button', { name: exact(a('notifications.send')) }).click();
    await expectToast(page, a('notifications.sent'));

    // Every step is in the audit log, with who did it.
    await openConsolePage(page, '/audit', 'nav.audit');
    for (const action of ['country.create', 'carrier.create', 'tariff.create', 'host.create', 'modem.import', 'modem.create', 'coupon.create', 'payment.refund', 'customer.balance-adjust', 'notification.send']) {
      await page.getByLabel(a('audit.search')).fill(action);
      const row = page.getByRole('row').filter({ has: page.locator('.admin-audit__action', { hasText: exact(action) }) }).first();
      await row.waitFor();
      expect(await row.textContent()).toContain(operator.email);
    }
    await page.getByLabel(a('audit.search')).fill('country.create');
    await page.getByRole('row').filter({ hasText: 'country.create' }).first().getByText('Нидерланды').waitFor();
    await toastsGone(page);
    await visitCheck(page, 'admin-audit');
  });
});

describe('every console page', () => {
  const pages: Array<[string, string]> = [
    ['', 'nav.overview'], ['/customers', 'nav.customers'], ['/inventory', 'nav.inventory'], ['/catalog', 'nav.catalog'],
    ['/coupons', 'nav.coupons'], ['/payments', 'nav.payments'], ['/notifications', 'nav.notifications'],
    ['/settings', 'nav.settings'], ['/audit', 'nav.audit'], ['/admins', 'nav.admins'],
  ];

  test.each(languages)('in %s: screenshots and axe on desktop, and on a phone in en', async (lng) => {
    const { page } = browser;
    await signInOperator(page, lng);
    for (const [path, key] of pages) {
      await openConsolePage(page, path, key, lng);
      await visitCheck(page, `admin-${lng}-${key.split('.')[1]}`);
    }
    if (lng !== 'en') return;
    await page.setViewportSize(phoneViewport);
    for (const [path, key] of pages) {
      await openConsolePage(page, path, key, lng);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${key} fits 390 px`).toBeLessThanOrEqual(phoneViewport.width);
      await visitCheck(page, `admin-phone-${key.split('.')[1]}`);
    }
    // The drawer opens from the menu button and Escape closes it, focus back on the button.
    await page.getByRole('button', { name: exact(a('openMenu')) }).click();
    await page.getByRole('navigation', { name: a('navigation') }).getByRole('link', { name: exact(a('nav.customers')) }).waitFor();
    await shot(page, 'admin-phone-drawer');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('admin-menu-button');
  });
});
