// Issue 27, item 8, in a real browser: the operator sets a paid trial and volume discounts on a tariff in the
// console (a sub-cent price and overlapping steps are refused with a clear message); the customer sees the steps,
// the discount line and the total on Add Proxies before paying, the total the server quotes; buys the trial once and
// then finds it used. Screenshots and axe in en, ru and cn, desktop and phone.
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import type { Tariff } from '../packages/shared/src/schemas/catalog.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { exact, languages, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'pricing' });
const browser = useBrowser();
const operator = { email: 'pricing-ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const dialog = (page: Page) => page.getByRole('dialog');
/** A plural text as the page picks it (Intl plural rules of the language; cn is Chinese). */
const plural = (lng: Language, key: string, values: Record<string, string | number> & { count: number }) =>
  t(lng, `${key}_${new Intl.PluralRules(lng === 'cn' ? 'zh' : lng).select(values.count)}`, values);
const heading = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: exact(text) });
const COUNTRY: Record<Language, string> = { en: 'United States', ru: 'США', cn: '美国' };
const WEEK: Record<Language, string> = { en: 'Dedicated · Week', ru: 'Выделенный · Неделя', cn: '独享 · 周' };

async function api<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const response = method === 'GET'
    ? await page.context().request.get(`${server.url}/api/v1${path}`)
    : await page.context().request.post(`${server.url}/api/v1${path}`, { data, headers: { origin: server.url } });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

async function openTariffDialog(page: Page, lng: Language) {
  await page.goto(`${server.url}/${lng}/admin/catalog`);
  await heading(page, t(lng, 'admin:nav.catalog')).waitFor();
  await page.getByRole('tab', { name: t(lng, 'admin:catalog.tariffs') }).click();
  const row = page.getByRole('row').filter({ hasText: COUNTRY[lng] }).filter({ hasText: WEEK[lng] });
  await row.getByRole('button', { name: t(lng, 'admin:actions.editNamed', { name: WEEK[lng] }) }).click();
  await dialog(page).getByTestId('tariff-offers-fields').waitFor();
}

test('the console sets a trial and volume steps; Add Proxies shows the discount and the trial; the trial is bought once', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', operator, { redirect: '/en/admin' });
  await page.waitForURL(`${server.url}/en/admin`);

  // ---- the console form: whole cents, a trial, steps without overlaps ----
  await openTariffDialog(page, 'en');
  const d = dialog(page);
  const a = (key: string, values?: Record<string, string | number>) => t('en', `admin:${key}`, values);
  await d.getByLabel(a('fields.priceUsd')).fill('20.005');
  await d.getByLabel(a('pricing.trialOn')).check();
  await d.getByLabel(a('pricing.trialHours')).fill('1');
  await d.getByLabel(a('pricing.trialPrice')).fill('0.99');
  await d.getByRole('button', { name: exact(a('pricing.quantityAdd')) }).click();
  await d.getByRole('button', { name: exact(a('pricing.quantityAdd')) }).click();
  const quantity = d.getByRole('group', { name: a('pricing.quantityTitle') });
  await quantity.getByLabel(a('pricing.quantityMin')).nth(0).fill('2');
  await quantity.getByLabel(a('pricing.percent')).nth(0).fill('5');
  await quantity.getByLabel(a('pricing.quantityMin')).nth(1).fill('2');
  await quantity.getByLabel(a('pricing.percent')).nth(1).fill('10');
  await d.getByRole('button', { name: exact(a('actions.save')) }).click();
  await d.getByText(a('pricing.priceError')).waitFor();
  await d.getByText(a('pricing.errors.overlap')).waitFor();
  await visitCheck(page, 'pricing-console-errors-en');
  await page.setViewportSize(phoneViewport);
  await d.getByText(a('pricing.errors.overlap')).scrollIntoViewIfNeeded();
  await visitCheck(page, 'pricing-console-errors-en-phone');
  await page.setViewportSize({ width: 1280, height: 900 });

  await d.getByLabel(a('fields.priceUsd')).fill('20');
  await quantity.getByLabel(a('pricing.quantityMin')).nth(1).fill('5');
  await d.getByRole('button', { name: exact(a('pricing.daysAdd')) }).click();
  const days = d.getByRole('group', { name: a('pricing.daysTitle') });
  await days.getByLabel(a('pricing.daysMin')).fill('7');
  await days.getByLabel(a('pricing.percent')).fill('3');
  await d.getByRole('button', { name: exact(a('actions.save')) }).click();
  await d.waitFor({ state: 'detached' });
  const tariffs = await api<Tariff[]>(page, 'GET', '/tariffs');
  const week = tariffs.find((x) => x.name.en === WEEK.en && x.price === '20000000')!;
  expect(week).toMatchObject({
    trial: { hours: 1, price: '990000' }, discounts: { quantity: [{ min: 2, percent: 5 }, { min: 5, percent: 10 }], days: [{ min: 7, percent: 3 }] },
  });

  // The form as it opens in ru and cn, with what was saved.
  for (const lng of ['ru', 'cn'] as const) {
    await openTariffDialog(page, lng);
    expect(await dialog(page).getByLabel(t(lng, 'admin:pricing.trialPrice')).inputValue()).toBe('0.99');
    await dialog(page).getByTestId('tariff-offers-fields').scrollIntoViewIfNeeded();
    await visitCheck(page, `pricing-console-${lng}`);
    await page.setViewportSize(phoneViewport);
    await dialog(page).getByTestId('tariff-offers-fields').scrollIntoViewIfNeeded();
    await visitCheck(page, `pricing-console-${lng}-phone`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  // The operator's session ends; the customer signs in in the same browser.
  await page.context().clearCookies();

  // ---- the customer: steps, discount line and total before paying, in three languages ----
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  const order = { tariff_id: week._id, country_id: week.country_id, isShared: false, rotationInterval: week.rotationInterval, modemCount: 2 };
  const quote = (await api<{ data: { total: string; volumeDiscount: string; volumePercent: number } }>(page, 'POST', '/payment/quote', order)).data;
  // 2 × $20 = $40, 2+ ports −5 % and 7 days −3 %: −8 %, $36.80.
  expect(quote).toMatchObject({ total: '36800000', volumeDiscount: '3200000', volumePercent: 8 });

  for (const lng of languages) {
    const p = (key: string, values?: Record<string, string | number>) => t(lng, `add-proxy:${key}`, values);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/${lng}/add-proxy`);
    await heading(page, p('title')).waitFor();
    await page.getByLabel(p('country.label'), { exact: true }).selectOption({ label: COUNTRY[lng] });
    await page.getByRole('group', { name: p('type.label') }).getByRole('radio', { name: p('type.dedicated') }).check();
    await page.getByRole('radio', { name: new RegExp(WEEK[lng]) }).check();
    const offers = page.getByTestId('tariff-offers');
    await offers.getByText(plural(lng, 'add-proxy:offers.quantityStep', { count: 5, percent: 10 })).waitFor();
    await offers.getByText(plural(lng, 'add-proxy:offers.daysStep', { count: 7, percent: 3 })).waitFor();
    await page.getByRole('button', { name: exact(p('quantity.more')) }).click();
    await expect.poll(() => page.getByTestId('volume-discount').textContent()).toContain(p('summary.volume', { percent: 8 }));
    expect(await page.getByTestId('volume-discount').textContent()).toContain('$3.20');
    expect(await page.getByTestId('order-total').textContent()).toBe('$36.80');
    await visitCheck(page, `pricing-add-proxy-${lng}`);
    await page.setViewportSize(phoneViewport);
    await visitCheck(page, `pricing-add-proxy-${lng}-phone`);
  }

  // ---- the trial: one port, its price, once ----
  await page.setViewportSize({ width: 1280, height: 900 });
  const balance = async () => BigInt((await api<{ usdt: { balance: string } }>(page, 'GET', '/account')).usdt.balance);
  const before = await balance();
  await page.goto(`${server.url}/en/add-proxy`);
  await page.getByLabel(t('en', 'add-proxy:country.label'), { exact: true }).selectOption({ label: COUNTRY.en });
  await page.getByRole('group', { name: t('en', 'add-proxy:type.label') }).getByRole('radio', { name: t('en', 'add-proxy:type.dedicated') }).check();
  await page.getByRole('radio', { name: new RegExp(WEEK.en) }).check();
  const trialBox = page.getByLabel(plural('en', 'add-proxy:offers.trialLabel', { count: 1, price: '$0.99' }));
  await expect.poll(() => trialBox.isEnabled()).toBe(true);
  await trialBox.check();
  await expect.poll(() => page.getByTestId('order-total').textContent()).toBe('$0.99');
  await page.getByText(plural('en', 'add-proxy:summary.trialLine', { count: 1, tariff: WEEK.en, country: COUNTRY.en })).waitFor();
  expect(await page.getByLabel(t('en', 'add-proxy:quantity.label'), { exact: true }).count()).toBe(0);
  await visitCheck(page, 'pricing-trial-en');
  await page.getByRole('button', { name: exact(t('en', 'add-proxy:pay', { amount: '$0.99' })) }).click();
  await page.waitForURL(`${server.url}/en/proxies?new=**`);
  expect(before - (await balance())).toBe(990_000n);

  for (const lng of languages) {
    await page.goto(`${server.url}/${lng}/add-proxy`);
    await page.getByLabel(t(lng, 'add-proxy:country.label'), { exact: true }).selectOption({ label: COUNTRY[lng] });
    await page.getByRole('group', { name: t(lng, 'add-proxy:type.label') }).getByRole('radio', { name: t(lng, 'add-proxy:type.dedicated') }).check();
    await page.getByRole('radio', { name: new RegExp(WEEK[lng]) }).check();
    await page.getByTestId('tariff-offers').getByText(t(lng, 'add-proxy:offers.trialUsed')).waitFor();
    expect(await page.getByLabel(plural(lng, 'add-proxy:offers.trialLabel', { count: 1, price: '$0.99' })).isDisabled()).toBe(true);
    await visitCheck(page, `pricing-trial-used-${lng}`);
  }
});
