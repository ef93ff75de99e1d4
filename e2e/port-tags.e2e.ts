// Issue 16, item 4, in a real browser: a customer buys two ports, tags both "scraper-eu" from Your Proxies, shows
// only that tag, and rotates both at once; both get a new IP (checked through the API), and the filtered page, the
// tags dialog and a phone's view pass axe.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import type { Port } from '../packages/shared/src/schemas/catalog.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t } from './support/locales.js';
import { useServer } from './support/server.js';

// A quick simulated modem that never answers with the same IP, so "a new IP" is about our code, not luck.
const server = useServer({ name: 'port-tags', env: { MODEM_SIM_DELAY_MS: '600', MODEM_SIM_SAME_IP_RATE: '0' } });
const browser = useBrowser();
const TAG = 'scraper-eu';

async function ports(page: Page): Promise<Port[]> {
  const response = await page.context().request.get(`${server.url}/api/v1/modems`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Port[];
}

async function buyTwo(page: Page): Promise<string[]> {
  await page.goto(`${server.url}/en/add-proxy`);
  await page.getByRole('button', { name: exact(t('en', 'add-proxy:quantity.more')) }).click();
  await expect.poll(() => page.getByTestId('availability').textContent()).toMatch(/^\d+ available$/);
  const total = (await page.getByTestId('order-total').textContent())!;
  await page.getByRole('button', { name: exact(t('en', 'add-proxy:pay', { amount: total })) }).click();
  await page.waitForURL(`${server.url}/en/proxies?new=**`);
  return new URL(page.url()).searchParams.get('new')!.split(',');
}

async function tagPort(page: Page, name: string, tag: string) {
  await page.getByRole('button', { name: exact(t('en', 'proxies:tags.for', { name })) }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(t('en', 'proxies:tags.add'), { exact: true }).fill(tag.toUpperCase());
  await dialog.getByLabel(t('en', 'proxies:tags.add'), { exact: true }).press('Enter');
  await dialog.getByRole('button', { name: exact(t('en', 'proxies:tags.remove', { tag })) }).waitFor();
  await dialog.getByLabel(t('en', 'proxies:tags.note'), { exact: true }).fill(`Price monitor for ${name}`);
  await dialog.getByRole('button', { name: exact(t('en', 'proxies:save')) }).click();
  await dialog.waitFor({ state: 'detached' });
}

test('tag two ports, show only that tag, rotate both at once', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  const ids = await buyTwo(page);
  const bought = (await ports(page)).filter((p) => ids.includes(p._id));
  expect(bought).toHaveLength(2);

  // Tag each from its card; the second dialog is checked with axe while open.
  await tagPort(page, bought[0]!.modem_name, TAG);
  await page.getByRole('button', { name: exact(t('en', 'proxies:tags.for', { name: bought[1]!.modem_name })) }).click();
  await page.getByRole('dialog').getByLabel(t('en', 'proxies:tags.add'), { exact: true }).waitFor();
  await visitCheck(page, 'port-tags-dialog');
  await page.getByRole('dialog').getByRole('button', { name: exact(t('en', 'proxies:cancel')) }).click();
  await tagPort(page, bought[1]!.modem_name, TAG);
  await expect.poll(async () => (await ports(page)).filter((p) => p.tags.includes(TAG)).map((p) => p._id).sort()).toEqual([...ids].sort());

  // Show only the tag: the two ports, and nothing else the account holds.
  await page.getByLabel(t('en', 'proxies:bulk.show'), { exact: true }).selectOption(TAG);
  await page.waitForURL(`${server.url}/en/proxies?tag=${TAG}`);
  await expect.poll(() => page.getByTestId('port-card').count()).toBe(2);
  await page.getByText(`Price monitor for ${bought[0]!.modem_name}`).waitFor();
  await visitCheck(page, 'port-tags-filtered');

  // Rotate both at once: the progress is told, then one toast for both, and each port has a new IP.
  const before = new Map(bought.map((p) => [p._id, p.ext_ip]));
  await page.getByRole('button', { name: exact(t('en', 'proxies:bulk.rotate_other', { count: 2 })) }).click();
  await page.getByText(t('en', 'proxies:bulk.rotated_other', { count: 2 })).waitFor({ timeout: 30_000 });
  const after = (await ports(page)).filter((p) => ids.includes(p._id));
  for (const port of after) expect(port.ext_ip, port.modem_name).not.toBe(before.get(port._id));

  // "Renew all" opens Billing with both in the basket.
  await page.getByRole('link', { name: exact(t('en', 'proxies:bulk.renew_other', { count: 2 })) }).click();
  await page.waitForURL(`${server.url}/en/billing-renewals?ports=**`);
  await expect.poll(() => page.locator('[data-testid="renewal-line"].bl-row--chosen').count()).toBe(2);

  // The filtered list on a phone.
  await page.setViewportSize(phoneViewport);
  await page.goto(`${server.url}/en/proxies?tag=${TAG}`);
  await expect.poll(() => page.getByTestId('port-card').count()).toBe(2);
  await visitCheck(page, 'port-tags-phone');
});
