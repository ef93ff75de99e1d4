// Issue 27, item 12, in a real browser: the data strings a customer reads are in the page's language, not only the
// words around them. On Add Proxies and Your Proxies in Russian and Chinese, a region reads its Russian or Chinese
// name and a new port's default name reads "Прокси N" / "代理 N". In the console an operator names a region in
// English (required) and, optionally, Russian and Chinese, with the validation in the operator's language; customers
// read the new names, English where none was given. Axe and screenshots on desktop and phone.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Country, Port } from '../packages/shared/src/schemas/catalog.js';
import { apiCall } from './support/api.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { exact, startsWith, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'data-names' });
const browser = useBrowser();
const operator = { email: 'names-ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const heading = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: exact(text) });
const DEFAULT_NAME: Record<Exclude<Language, 'en'>, RegExp> = { ru: /^Прокси \d+$/, cn: /^代理 \d+$/ };

async function toastsGone(page: Page) {
  await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 10_000 }).toBe(0);
}

describe('data strings in the page language', () => {
  test('ru and cn: Add Proxies names the regions, Your Proxies the region and the new port, in the page language', async () => {
    const { page } = browser;
    await signIn(page, server.url, 'ru', demo);
    await expectDashboard(page, server.url, 'ru', 'Demo Customer');

    for (const lng of ['ru', 'cn'] as const) {
      const countries = await apiCall<Country[]>(page.request, server.url, 'GET', `/countries?lng=${lng}`);
      const us = countries[0]!;
      const carrier = us.carriers[0]!;
      // Each language buys in another of the carrier's regions, so neither runs out of the other's stock.
      const region = us.regions.filter((r) => r.carrier_id === carrier._id)[lng === 'ru' ? 0 : 1]!;
      // The demo catalog names its regions in three languages, so the page has something to show.
      expect(region.names[lng]).not.toBe(region.names.en);

      // ---- Add Proxies: the region choice lists the names in the page's language
      await page.goto(`${server.url}/${lng}/add-proxy`);
      await heading(page, t(lng, 'add-proxy:title')).waitFor();
      expect(await page.getByRole('radio', { name: exact(carrier.name) }).isChecked()).toBe(true);
      const regionSelect = page.getByLabel(t(lng, 'add-proxy:region.label'), { exact: true });
      const options = await regionSelect.locator('option').allTextContents();
      expect(options).toContain(region.names[lng]);
      expect(options).not.toContain(region.names.en);
      await regionSelect.selectOption({ label: region.names[lng] });
      await page.getByRole('radio', { name: startsWith(t(lng, 'add-proxy:type.dedicated')) }).check();
      const total = page.getByTestId('order-total');
      await expect.poll(() => total.textContent()).toMatch(/^\$\d/);
      await visitCheck(page, `data-names-add-proxy-${lng}`);
      await page.setViewportSize(phoneViewport);
      await visitCheck(page, `data-names-add-proxy-${lng}-phone`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('button', { name: exact(t(lng, 'add-proxy:pay', { amount: (await total.textContent())! })) }).click();

      // ---- Your Proxies: the new port's card, named by default in the page's language, in the chosen region
      await page.waitForURL(`${server.url}/${lng}/proxies?new=**`);
      await heading(page, t(lng, 'proxies:title')).waitFor();
      const [newId] = new URL(page.url()).searchParams.get('new')!.split(',');
      const port = (await apiCall<Port[]>(page.request, server.url, 'GET', `/modems?lng=${lng}`)).find((p) => p._id === newId)!;
      expect(port.modem_name).toMatch(DEFAULT_NAME[lng]);
      expect(port.region).toEqual({ _id: region._id, name: region.names[lng] });
      const card = page.getByRole('article', { name: exact(port.modem_name) });
      await card.getByRole('heading', { level: 2, name: exact(port.modem_name) }).waitFor();
      expect(await card.locator('.px-card__place').textContent()).toContain(region.names[lng]);
      // The English words the page used to show in their place are gone from the card.
      expect(await card.textContent()).not.toContain(region.names.en);
      expect(await card.textContent()).not.toMatch(/Proxy \d/);
      await toastsGone(page);
      await card.scrollIntoViewIfNeeded();
      await visitCheck(page, `data-names-proxies-${lng}`);
      await page.setViewportSize(phoneViewport);
      await card.scrollIntoViewIfNeeded();
      await visitCheck(page, `data-names-proxies-${lng}-phone`);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  test('console (ru): an operator names a region in three languages; customers read each, English where none', async () => {
    const { page } = browser;
    const a = (key: string, values?: Record<string, string | number>) => t('ru', `admin:${key}`, values);
    await signIn(page, server.url, 'ru', operator, { redirect: '/ru/admin' });
    await page.waitForURL(`${server.url}/ru/admin`);
    await page.goto(`${server.url}/ru/admin/catalog`);
    await heading(page, a('nav.catalog')).waitFor();
    await page.getByRole('tab', { name: a('catalog.regions') }).click();

    // ---- add: English is required (said in Russian); Russian given, Chinese left to English
    await page.getByRole('button', { name: exact(a('catalog.addRegion')) }).click();
    const dialog = page.getByRole('dialog', { name: exact(a('catalog.addRegion')) });
    await dialog.getByLabel('Русский', { exact: true }).fill('Сиэтл');
    await dialog.getByRole('button', { name: exact(a('catalog.addRegion')) }).click();
    const english = dialog.getByLabel('English', { exact: true });
    expect(await english.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByRole('alert').filter({ hasText: exact(a('required')) }).waitFor();
    await dialog.getByText(a('catalog.nameFallbackHint')).first().waitFor();
    await visitCheck(page, 'data-names-console-region-required-ru');
    await english.fill('Seattle');
    await dialog.getByRole('button', { name: exact(a('catalog.addRegion')) }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Seattle', exact: true }) });
    await row.getByRole('cell', { name: 'Сиэтл', exact: true }).waitFor();

    const customerName = async (lng: Language) => {
      const countries = await apiCall<Country[]>(page.request, server.url, 'GET', `/countries?lng=${lng}`);
      return countries.flatMap((c) => c.regions).find((r) => r.names.en === 'Seattle')?.name;
    };
    expect(await customerName('ru')).toBe('Сиэтл');
    expect(await customerName('cn')).toBe('Seattle');

    // ---- edit: the Chinese name added later
    await row.getByRole('button', { name: exact(a('actions.editNamed', { name: 'Сиэтл' })) }).click();
    const edit = page.getByRole('dialog', { name: exact(a('catalog.editRegion')) });
    expect(await edit.getByLabel('English', { exact: true }).inputValue()).toBe('Seattle');
    expect(await edit.getByLabel('Русский', { exact: true }).inputValue()).toBe('Сиэтл');
    await edit.getByLabel('中文', { exact: true }).fill('西雅图');
    await visitCheck(page, 'data-names-console-region-edit-ru');
    await edit.getByRole('button', { name: exact(a('actions.save')) }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByRole('cell', { name: '西雅图', exact: true }).waitFor();
    expect(await customerName('cn')).toBe('西雅图');
    expect(await customerName('en')).toBe('Seattle');

    // Audited like every catalog write, with the names before and after.
    const audit = await apiCall<{ items: Array<{ action: string; before: Record<string, unknown>; after: Record<string, unknown> }> }>(
      page.request, server.url, 'GET', '/admin/audit?action=region.update');
    expect(audit.items[0]).toMatchObject({ before: { name: 'Seattle', name_ru: 'Сиэтл', name_cn: null }, after: { name_cn: '西雅图' } });

    await toastsGone(page);
    await visitCheck(page, 'data-names-console-regions-ru');
    await page.setViewportSize(phoneViewport);
    await visitCheck(page, 'data-names-console-regions-ru-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}/cn/admin/catalog`);
    await heading(page, t('cn', 'admin:nav.catalog')).waitFor();
    await page.getByRole('tab', { name: t('cn', 'admin:catalog.regions') }).click();
    await page.getByRole('cell', { name: '西雅图', exact: true }).waitFor();
    await visitCheck(page, 'data-names-console-regions-cn');
  });
});
