// Issue 26, item 9 and issue 27, item 11, in a real browser: on the Account page (API keys live there too, not only
// on Documentation) the demo customer creates a read-only key and a spending key with a monthly limit; the list shows
// each key's scope and what the capped one spent; the read-only key reads the ports and is refused a change with
// its own reason. axe on the form, the shown-once dialog and the list, on desktop and on a phone.
import { expect, test } from 'vitest';
import { buyDedicatedPort } from './support/api.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'api-keys' });
const browser = useBrowser();

test('create a read-only key and a capped spending key on Account; the read-only key cannot change a port', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  await buyDedicatedPort(page.request, server.url);
  await page.goto(`${server.url}/en/account`);
  const card = page.locator('section[aria-labelledby="docs-keys-title"]');
  await card.getByRole('heading', { name: t('en', 'docs:keys.title') }).waitFor();

  const create = async (name: string, scope: 'read' | 'manage' | 'full', limit?: string): Promise<string> => {
    await card.getByLabel(t('en', 'docs:keys.name')).fill(name);
    await card.getByLabel(t('en', 'docs:keys.scope')).selectOption(scope);
    if (limit !== undefined) await card.getByLabel(t('en', 'docs:keys.limit')).fill(limit);
    await card.getByRole('button', { name: exact(t('en', 'docs:keys.create')) }).click();
    const dialog = page.getByRole('dialog', { name: t('en', 'docs:keys.createdTitle', { name }) });
    const key = (await dialog.getByTestId('new-api-key').textContent())!.trim();
    expect(key).toMatch(/^cpk_/);
    await dialog.getByRole('button', { name: exact(t('en', 'docs:keys.done')) }).click();
    await card.getByRole('cell', { name: exact(name) }).waitFor();
    return key;
  };

  // A limit that is not whole cents is refused on the page, in words.
  await card.getByLabel(t('en', 'docs:keys.scope')).selectOption('full');
  await card.getByLabel(t('en', 'docs:keys.name')).fill('bad limit');
  await card.getByLabel(t('en', 'docs:keys.limit')).fill('12.505');
  await card.getByRole('button', { name: exact(t('en', 'docs:keys.create')) }).click();
  await card.getByText(t('en', 'docs:keys.limitInvalid')).waitFor();
  await visitCheck(page, 'api-keys-limit-error');

  const reader = await create('reader', 'read');
  await create('buyer', 'full', '12.50');
  await card.getByText(t('en', 'docs:keys.spent', { spent: '$0.00', limit: '$12.50' })).waitFor();
  await card.getByRole('row').filter({ hasText: 'reader' }).getByText(t('en', 'docs:keys.scopes.read')).waitFor();
  await visitCheck(page, 'api-keys-list');

  // The read-only key at work, as a script would use it.
  const call = (method: string, path: string, body?: unknown) => fetch(`${server.url}/api/v1${path}`, {
    method, headers: { authorization: `Bearer ${reader}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const ports = await call('GET', '/modems');
  expect(ports.status).toBe(200);
  const balance = await call('GET', '/account');
  expect(balance.status).toBe(200);
  const [port] = await ports.json() as Array<{ _id: string }>;
  const refused = await call('PATCH', `/modems/${port!._id}`, { modem_name: 'by a reader' });
  expect(refused.status).toBe(403);
  expect((await refused.json()).code).toBe('API_KEY_READ_ONLY');
  const wrong = await fetch(`${server.url}/api/v1/modems`, { headers: { authorization: 'Bearer cpk_not-a-key' } });
  expect((await wrong.json()).code).toBe('API_KEY_INVALID');

  await page.setViewportSize(phoneViewport);
  await card.scrollIntoViewIfNeeded();
  await visitCheck(page, 'api-keys-phone');
});

test('sign out everywhere from Account ends this session and, as offered, revokes the API keys (issue 26, item 9)', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  const created = await page.request.post(`${server.url}/api/v1/api-keys`, { headers: { origin: server.url }, data: { name: 'leaving', scope: 'read' } });
  const { key } = (await created.json()) as { key: string };
  const read = () => fetch(`${server.url}/api/v1/modems`, { headers: { authorization: `Bearer ${key}` } });
  expect((await read()).status).toBe(200);

  await page.goto(`${server.url}/en/account`);
  await page.getByRole('button', { name: exact(t('en', 'account:sessions.everywhere')) }).click();
  const dialog = page.getByRole('dialog', { name: t('en', 'account:sessions.everywhereTitle') });
  const revoke = dialog.getByRole('checkbox', { name: t('en', 'account:sessions.everywhereRevoke') });
  expect(await revoke.isChecked()).toBe(true);
  await visitCheck(page, 'sign-out-everywhere');
  await dialog.getByRole('button', { name: exact(t('en', 'account:sessions.everywhere')) }).click();
  await page.waitForURL(`${server.url}/en/sign-in**`);
  expect((await page.request.get(`${server.url}/api/v1/me`)).status()).toBe(401);
  const refused = await read();
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { code: string }).code).toBe('API_KEY_INVALID');
});
