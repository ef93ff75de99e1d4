// Issue 27, item 4, in a real browser: a customer buys a shared port; its card says that its IP changes on the
// modem's schedule and when next, with no 'Rotate now' button and no rotation link, and the API refuses an
// on-demand rotation. The card passes axe on a desktop, and in Russian on a phone.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import type { Port } from '../packages/shared/src/schemas/catalog.js';
import { phoneViewport, screenshotsDir, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, startsWith, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'shared-port' });
const browser = useBrowser();

async function portById(page: Page, id: string): Promise<Port | undefined> {
  const response = await page.context().request.get(`${server.url}/api/v1/modems`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as Port[]).find((p) => p._id === id);
}

test('a shared port shows its next scheduled rotation instead of a rotate button, and cannot be rotated on demand', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');

  await page.goto(`${server.url}/en/add-proxy`);
  await page.getByRole('radio', { name: startsWith(t('en', 'add-proxy:type.shared')) }).check();
  await expect.poll(() => page.getByTestId('availability').textContent()).toMatch(/^\d+ available$/);
  const total = (await page.getByTestId('order-total').textContent())!;
  await page.getByRole('button', { name: exact(t('en', 'add-proxy:pay', { amount: total })) }).click();
  await page.waitForURL(`${server.url}/en/proxies?new=**`);
  const id = new URL(page.url()).searchParams.get('new')!;

  // The modem's schedule starts with its first customer (the job runner's planner); the list then carries it.
  await expect.poll(async () => (await portById(page, id))?.nextRotationAt ?? null, { timeout: 30_000 }).not.toBeNull();
  const port = (await portById(page, id))!;
  expect(port.isShared).toBe(true);

  await page.reload();
  const card = page.locator(`article[aria-labelledby="port-${id}"]`);
  const note = card.getByTestId('shared-rotation');
  await expect.poll(() => note.textContent()).toContain(t('en', 'proxies:rotate.shared'));
  expect(await note.textContent()).toContain(t('en', 'proxies:rotate.next'));
  expect(await note.locator('time').getAttribute('datetime')).toBe(port.nextRotationAt);
  expect(await card.getByRole('button', { name: exact(t('en', 'proxies:rotate.button')) }).count()).toBe(0);
  expect(await card.getByText(t('en', 'proxies:link.label'), { exact: true }).count()).toBe(0);
  expect(await card.getByText(port.rotationLink).count()).toBe(0);
  await visitCheck(page, 'shared-port-card');

  // A script with the session gets the same answer the button would have.
  const refused = await page.context().request.post(`${server.url}/api/v1/modems/${id}/rotate`, { headers: { origin: server.url } });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ code: 'SHARED_PORT_ROTATION', nextRotationAt: port.nextRotationAt });

  // In Russian, on a phone.
  await page.setViewportSize(phoneViewport);
  await page.goto(`${server.url}/ru/proxies`);
  await expect.poll(() => page.locator(`article[aria-labelledby="port-${id}"]`).getByTestId('shared-rotation').textContent())
    .toContain(t('ru', 'proxies:rotate.shared'));
  await visitCheck(page, 'shared-port-card-ru-phone');
  // The page's own shot shows the top of a phone's screen; this one is the card itself.
  await page.locator(`article[aria-labelledby="port-${id}"]`).screenshot({ path: join(screenshotsDir, 'shared-port-card-ru-phone-card.png') });
});
