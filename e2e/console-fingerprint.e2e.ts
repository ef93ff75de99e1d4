// Issue 30 in the operator console: the host's "cannot apply presets" reason (its agent's heartbeat) on the hosts
// and modems tabs, a modem's default preset set with the keyboard and a tariff's in the catalog (both audited), and
// the modems whose ports' preset is failing (they refuse new connections: fail closed) listed by a filter with the
// reason. The embedded agent is real; it runs without /usr/sbin in its PATH, so it finds no tc and says so whether
// or not it is root (not root, it says that instead). en, ru and cn; axe; desktop and phone.
import type { APIRequestContext, Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import type { Port } from '../packages/shared/src/schemas/catalog.js';
import { apiCall, buyDedicatedPort } from './support/api.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';

// The agent's PATH without the sbin directories: no tc, nft or iptables for it (the server needs none of them).
const pathWithoutSbin = (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(':').filter((dir) => !/sbin/.test(dir)).join(':');
const server = useServer({ name: 'console-fingerprint', env: { EMBEDDED_AGENT: 'true', PATH: pathWithoutSbin } });
const browser = useBrowser();
const operator = { email: 'fingerprint-ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const a = (lng: Language, key: string, values?: Record<string, string | number>) => t(lng, `admin:${key}`, values);
const call = <T>(request: APIRequestContext, method: 'GET' | 'POST', path: string) => apiCall<T>(request, server.url, method, path);

interface AdminModem { id: string; imei: string; fingerprintDefault: string | null; fingerprintUnavailable: string | null; fingerprintFailing: { portId: string; reason: string }[] }
interface AdminHost { id: string; name: string; online: boolean; fingerprintUnavailable: string | null }
interface AuditEntry { action: string; targetId: string | null; before: Record<string, unknown> | null; after: Record<string, unknown> | null }

async function filterFailing(page: Page, lng: Language) {
  await page.getByLabel(a(lng, 'fields.status'), { exact: true }).selectOption({ label: a(lng, 'modemStatus.presetFailing') });
}

test('the operator sees why a host cannot apply presets, sets a modem\'s default preset, and finds the ports that fail closed', async () => {
  const { page, context } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  await buyDedicatedPort(context.request, server.url);
  const [port] = (await (await context.request.get(`${server.url}/api/v1/modems`)).json()) as Port[];
  await page.goto('about:blank');
  await context.clearCookies();
  await signIn(page, server.url, 'en', operator, { redirect: '/en/admin' });
  await page.waitForURL(`${server.url}/en/admin`);

  // The host's agent has reported that it cannot apply presets (its first heartbeat, on connecting).
  let host: AdminHost | undefined;
  const modemOf = async () => (await call<{ items: AdminModem[] }>(context.request, 'GET', `/admin/modems?q=${port!.IMEI}`)).items[0]!;
  const hostId = (await call<{ items: Array<AdminModem & { hostId: string }> }>(context.request, 'GET', `/admin/modems?q=${port!.IMEI}`)).items[0]!.hostId;
  await expect.poll(async () => {
    host = (await call<{ items: AdminHost[] }>(context.request, 'GET', '/admin/hosts')).items.find((h) => h.id === hostId);
    return host?.online === true && host.fingerprintUnavailable !== null && !/has not reported/.test(host.fingerprintUnavailable);
  }, { timeout: 30_000 }).toBe(true);
  expect(host!.fingerprintUnavailable).toMatch(/tc command is missing|not run as root/);
  const reason = host!.fingerprintUnavailable!;

  // Hosts tab: the host says it cannot, with its agent's reason.
  await page.goto(`${server.url}/en/admin/inventory/hosts`);
  const hostCard = page.locator('section', { has: page.getByRole('heading', { level: 2, name: new RegExp(`^${host!.name.replace(/\./g, '\\.')}\\b`) }) });
  await hostCard.getByTestId('host-fingerprint').getByText(a('en', 'hosts.presetsUnavailable')).waitFor();
  expect(await hostCard.getByTestId('host-fingerprint').textContent()).toContain(reason);
  await hostCard.getByTestId('host-fingerprint').scrollIntoViewIfNeeded();
  await visitCheck(page, 'console-fingerprint-host');

  // Modems tab: the modem of the port, its default set to Windows with the keyboard.
  await page.goto(`${server.url}/en/admin/inventory`);
  const search = page.getByLabel(a('en', 'inventory.searchModems'));
  await search.fill(port!.IMEI);
  await search.press('Enter');
  const row = page.getByRole('row').filter({ has: page.getByText(port!.IMEI, { exact: true }) });
  await row.getByTestId('modem-fingerprint-unavailable').getByText(reason).waitFor();
  await row.getByText(a('en', 'inventory.fingerprintTariff')).waitFor();
  const edit = row.getByRole('button', { name: a('en', 'inventory.editModemNamed', { imei: port!.IMEI }) });
  // Enabled once the hosts and the catalog the dialog needs have loaded (they come by queries of their own).
  await expect.poll(() => edit.isEnabled()).toBe(true);
  await edit.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  const presetSelect = dialog.getByLabel(a('en', 'fields.fingerprintModemDefault'));
  await presetSelect.focus();
  await presetSelect.selectOption({ label: t('en', 'proxies:fingerprint.presets.windows.name') });
  await dialog.getByRole('button', { name: a('en', 'actions.save') }).press('Enter');
  await dialog.waitFor({ state: 'detached' });
  await row.getByText(a('en', 'inventory.fingerprintDefault', { preset: t('en', 'proxies:fingerprint.presets.windows.name') })).waitFor();
  expect((await modemOf()).fingerprintDefault).toBe('windows');
  // Audited, with what it was and what it became.
  const audit = await call<{ items: AuditEntry[] }>(context.request, 'GET', `/admin/audit?action=modem.update&target_id=${(await modemOf()).id}`);
  expect(audit.items[0]).toMatchObject({ action: 'modem.update', before: { fingerprint_default: null }, after: { fingerprint_default: 'windows' } });

  // The agent gets the port's preset, cannot apply it, and refuses the port's new connections: its next heartbeat
  // lists the port with the reason (sent at once after the new state).
  await expect.poll(async () => (await modemOf()).fingerprintFailing, { timeout: 30_000 }).toEqual([{ portId: port!._id, reason }]);

  for (const lng of ['en', 'ru', 'cn'] as const) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/${lng}/admin/inventory`);
    await filterFailing(page, lng);
    const failing = page.getByTestId('modem-fingerprint-failing');
    await failing.getByText(a(lng, 'inventory.fingerprintFailingPort', { port: port!.modem_name, reason })).waitFor();
    // Only modems with a failing port are listed: here, that one.
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByRole('row').filter({ has: page.getByText(port!.IMEI, { exact: true }) }).waitFor();
    await visitCheck(page, `console-fingerprint-failing-${lng}`);
    if (lng === 'en') {
      await page.setViewportSize(phoneViewport);
      // Below 1024 px the sidebar slides away and is hidden only when its 0.2 s transition ends: wait for that, or it
      // still lies over the table's left part (CI measured the cell there, covered by the sidebar's links).
      await page.locator('.admin-sidebar').waitFor({ state: 'hidden' });
      // The table scrolls sideways on a phone: bring the cell to its left edge. Nothing lies over it there (the row's
      // buttons are not pinned on a phone: pinned, they covered its right part whatever the scroll).
      const cell = page.locator('td.admin-fingerprint').filter({ has: failing });
      await cell.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'start' }));
      const covered = await cell.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const right = Math.min(box.right, document.documentElement.clientWidth) - 2;
        const points = [0.05, 0.5, 0.95, 1].flatMap((fx) => [0.25, 0.75].map((fy) => [box.left + 2 + (right - box.left - 2) * fx, box.top + box.height * fy] as const));
        return points.filter(([x, y]) => !el.contains(document.elementFromPoint(x, y))).map(([x, y]) => `${Math.round(x)},${Math.round(y)}`);
      });
      expect(covered).toEqual([]);
      await visitCheck(page, 'console-fingerprint-failing-en-phone');
    }
  }

  // Back to the tariff's default: the port is no longer failing.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/en/admin/inventory`);
  await search.fill(port!.IMEI);
  await search.press('Enter');
  await row.getByRole('button', { name: a('en', 'inventory.editModemNamed', { imei: port!.IMEI }) }).click();
  await presetSelect.selectOption({ label: a('en', 'inventory.fingerprintTariff') });
  await dialog.getByRole('button', { name: a('en', 'actions.save') }).click();
  await dialog.waitFor({ state: 'detached' });
  await expect.poll(async () => (await modemOf()).fingerprintFailing, { timeout: 30_000 }).toEqual([]);

  // The tariff's default, in the catalog: the port follows it (its modem sets none), so it fails closed again.
  await page.goto(`${server.url}/en/admin/catalog`);
  await page.getByRole('tab', { name: a('en', 'catalog.tariffs') }).click();
  // Tariffs of different countries share names: the port's is the row at its place in the console's list.
  const tariffs = (await call<{ tariffs: Array<{ id: string }> }>(context.request, 'GET', '/admin/catalog')).tariffs;
  const tariffRow = page.locator('tbody tr').nth(tariffs.findIndex((tf) => tf.id === port!.tariff_id));
  const editTariff = tariffRow.getByRole('button', { name: a('en', 'actions.editNamed', { name: port!.tariffName.en }), exact: true });
  await editTariff.click();
  const tariffPreset = dialog.getByLabel(a('en', 'fields.fingerprintDefault'));
  await tariffPreset.selectOption({ label: t('en', 'proxies:fingerprint.presets.android.name') });
  await visitCheck(page, 'console-fingerprint-tariff');
  await dialog.getByRole('button', { name: a('en', 'actions.save') }).click();
  await dialog.waitFor({ state: 'detached' });
  const tariffAudit = await call<{ items: AuditEntry[] }>(context.request, 'GET', `/admin/audit?action=tariff.update&target_id=${port!.tariff_id}`);
  expect(tariffAudit.items[0]).toMatchObject({ before: { fingerprint_default: null }, after: { fingerprint_default: 'android' } });
  await expect.poll(async () => (await modemOf()).fingerprintFailing, { timeout: 30_000 }).toEqual([{ portId: port!._id, reason }]);
});
