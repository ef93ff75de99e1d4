// Issue 30 in a real browser: on Your Proxies the customer opens the port's "OS fingerprint", picks Windows with the
// keyboard, sees it active, and runs "What a site sees". The echo here is a small fake on 127.0.0.1 speaking the
// echo's contract (it answers a Windows SYN whatever came; the real echo with p0f is tested in the agent's namespace
// test): this test is about the page. Screenshots and axe in three languages, desktop and phone.
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FINGERPRINT_PRESETS } from '../packages/shared/src/fingerprint-presets.js';
import type { Port } from '../packages/shared/src/schemas/catalog.js';
import { buyDedicatedPort } from './support/api.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { t } from './support/locales.js';
import { useServer } from './support/server.js';

const windows = FINGERPRINT_PRESETS.windows;
const echo = createServer((socket) => {
  let request = '';
  socket.on('error', () => {});
  socket.on('data', (chunk: Buffer) => {
    request += chunk.toString('latin1');
    if (!request.includes('\r\n\r\n')) return;
    const body = JSON.stringify({
      ip: socket.remoteAddress!.replace(/^::ffff:/, ''), ttl: 128, initialTtl: 128, window: windows.window, windowScale: windows.windowScale,
      mss: windows.mss, options: [...windows.options], p0f: { signature: windows.p0f.signature, label: windows.p0f.label }, ja4t: windows.ja4t,
    });
    socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
});
const env: Record<string, string> = { MODEM_SIM_DELAY_MS: '300', MODEM_SIM_SAME_IP_RATE: '0' };
// Before the server's own beforeAll (hooks run in order): it reads the echo's address from `env`.
beforeAll(async () => {
  echo.listen(0, '127.0.0.1');
  await once(echo, 'listening');
  env.FINGERPRINT_ECHO_URL = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
});
afterAll(() => { echo.close(); });
const server = useServer({ name: 'fingerprint', env });
const browser = useBrowser();

test('a customer picks Windows for a port and sees what a site sees, in en, ru and cn, on desktop and phone', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  await buyDedicatedPort(page.request, server.url);
  const ports = (await (await page.request.get(`${server.url}/api/v1/modems`)).json()) as Port[];
  expect(ports[0]!.fingerprint.active).toBe('native');

  for (const lng of ['en', 'ru', 'cn'] as const) {
    await page.setViewportSize({ width: 1280, height: 900 });
    // The month's traffic arrives by a query of its own, after the cards. It is held here until the disclosure is
    // open, then let through: the card must stay as it is (once the quota meter suspended the whole page into the
    // shell's spinner, so a key pressed meanwhile went nowhere and the section was seen closed, 1 run in ~4).
    let release!: () => void;
    const quotaHeld = new Promise<void>((resolve) => { release = resolve; });
    const holdQuota = async (route: Route) => { await quotaHeld; await route.continue(); };
    await page.route('**/api/v1/traffic/quota', holdQuota);
    await page.goto(`${server.url}/${lng}/proxies`);
    const card = page.getByTestId('port-card').first();
    const details = card.getByTestId('port-fingerprint');
    // Open the disclosure with the keyboard.
    await details.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    // A positive marker for "the page never fell back to its spinner": every DOM change until the quota is shown.
    await page.evaluate(() => {
      const w = window as unknown as { pageFellBack: boolean };
      w.pageFellBack = false;
      new MutationObserver(() => { if (document.querySelector('.shell__page-loading')) w.pageFellBack = true; })
        .observe(document.body, { childList: true, subtree: true });
    });
    release();
    await card.getByTestId('port-quota').waitFor();
    expect(await page.evaluate(() => (window as unknown as { pageFellBack: boolean }).pageFellBack)).toBe(false);
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open && d.contains(document.activeElement))).toBe(true);
    await page.unroute('**/api/v1/traffic/quota', holdQuota);
    const select = details.getByLabel(t(lng, 'proxies:fingerprint.label'));
    if (lng === 'en') {
      await select.focus();
      await select.selectOption({ label: t(lng, 'proxies:fingerprint.presets.windows.name') });
    }
    await expect.poll(() => details.getByTestId('port-fingerprint-active').textContent()).toBe(t(lng, 'proxies:fingerprint.presets.windows.name'));
    await details.getByRole('button', { name: t(lng, 'proxies:fingerprint.check.button') }).click();
    const result = details.getByTestId('port-fingerprint-result');
    await result.getByText(t(lng, 'proxies:fingerprint.check.matches', { preset: t(lng, 'proxies:fingerprint.presets.windows.name') })).waitFor();
    expect(await result.getByTestId('port-fingerprint-row-p0f').textContent()).toContain('Windows NT kernel');
    expect(await result.getByTestId('port-fingerprint-row-ttl').textContent()).toContain('128');
    await details.scrollIntoViewIfNeeded();
    await visitCheck(page, `fingerprint-${lng}`);
    await page.setViewportSize(phoneViewport);
    await details.scrollIntoViewIfNeeded();
    await visitCheck(page, `fingerprint-${lng}-phone`);
  }
  const after = (await (await page.request.get(`${server.url}/api/v1/modems`)).json()) as Port[];
  expect(after[0]!.fingerprint).toMatchObject({ preset: 'windows', active: 'windows', source: 'port' });
});
