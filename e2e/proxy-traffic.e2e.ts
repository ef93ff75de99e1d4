// Issue 11, "Done when", walked as a newcomer would: sign in as the demo customer, buy two dedicated ports, paste
// the curl lines Your Proxies shows into a terminal (the real curl, `bash -c`, exactly as printed) over HTTP and
// SOCKS5, and the site they reach (the dashboard's own /api/v1/ip) sees the `ext_ip` each card shows, different for
// the two ports. Rotate one from the page and the next request shows the new IP. The bytes appear on the Traffic
// page. An operator deactivates the customer in the console, and within 3 s the proxies refuse and open downloads
// through them are cut. The demo's embedded agent serves the seeded hosts (EMBEDDED_AGENT defaults to on).
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Port } from '../packages/shared/src/schemas/catalog.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { exact, startsWith, t, type Language } from './support/locales.js';
import { useServer } from './support/server.js';
import { sh, shBackground, streamingSite, type Running, type ShellResult, type StreamingSite } from './support/shell.js';

// A quick simulated modem (the embedded agent's rotation takes this long).
const server = useServer({ name: 'proxy-traffic', env: { MODEM_SIM_DELAY_MS: '800', MODEM_SIM_SAME_IP_RATE: '0' } });
const browser = useBrowser();
const operator = { email: 'ops@cellport.test', password: '' };
let site: StreamingSite;

beforeAll(async () => {
  // The first operator comes from the CLI, run while the server is stopped (PGlite allows one process).
  Object.assign(operator, await createOperator(server, operator.email));
  site = await streamingSite();
}, 120_000);
afterAll(async () => { await site?.close(); });

const heading = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: exact(text) });
const ipOf = (result: ShellResult) => result.stdout.trim();
const isIp = (text: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(text) || /^[\da-f:]+:[\da-f:]*$/i.test(text);
const describeRun = (r: ShellResult) => `exit ${r.code ?? r.signal} after ${r.ms} ms, stdout ${JSON.stringify(r.stdout.slice(0, 200))}, stderr ${JSON.stringify(r.stderr.slice(0, 300))}`;

async function toastsGone(page: Page) {
  await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 10_000 }).toBe(0);
}

/** What one card shows: its IP and the two curl lines of its "Try it with curl" disclosure. */
async function shown(card: Locator) {
  return {
    ip: (await card.getByTestId('port-ip').textContent())!.trim(),
    http: (await card.getByTestId('port-curl-http').textContent())!.trim(),
    socks: (await card.getByTestId('port-curl-socks').textContent())!.trim(),
  };
}

/**
 * Runs a card's curl line until what it prints is the IP the card shows at that moment (the agent reports its
 * modems' addresses with its first heartbeat, which the page then shows): 'same', or what differed.
 */
async function agreesWithCard(card: Locator, which: 'http' | 'socks'): Promise<string> {
  const before = await shown(card);
  const run = await sh(before[which]);
  const after = await shown(card);
  if (ipOf(run) === before.ip && before.ip === after.ip) return 'same';
  return `the card shows ${before.ip}${after.ip !== before.ip ? ` then ${after.ip}` : ''}; curl: ${describeRun(run)}`;
}


describe('the ports a customer buys carry real traffic', () => {
  test('buy two ports, curl through both as printed, rotate, see the bytes, deactivate and be cut off', async () => {
    const { page } = browser;
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');

    // ---- buy two dedicated ports from the balance ----
    await page.goto(`${server.url}/en/add-proxy`);
    await heading(page, t('en', 'add-proxy:title')).waitFor();
    await page.getByRole('radio', { name: startsWith(t('en', 'add-proxy:type.dedicated')) }).check();
    await page.getByRole('button', { name: exact(t('en', 'add-proxy:quantity.more')) }).click();
    await expect.poll(() => page.getByTestId('availability').textContent()).toMatch(/^\d+ available$/);
    expect(await page.getByLabel(t('en', 'add-proxy:quantity.label'), { exact: true }).inputValue()).toBe('2');
    const orderTotal = (await page.getByTestId('order-total').textContent())!;
    await page.getByRole('button', { name: exact(t('en', 'add-proxy:pay', { amount: orderTotal })) }).click();
    await page.waitForURL(`${server.url}/en/proxies?new=**`);
    await heading(page, t('en', 'proxies:title')).waitFor();
    const newIds = new URL(page.url()).searchParams.get('new')!.split(',');
    expect(newIds).toHaveLength(2);

    const listed = await (await page.context().request.get(`${server.url}/api/v1/modems`)).json() as Port[];
    const bought = newIds.map((id) => listed.find((p) => p._id === id)!);
    for (const port of bought) expect(port, 'a bought port').toMatchObject({ isShared: false, status: 'active' });
    const cards = bought.map((port) => page.getByRole('article', { name: port.modem_name }));

    // ---- the card shows how to try it: open at once on a port just bought, two lines aimed at this site ----
    for (const [i, card] of cards.entries()) {
      const port = bought[i]!;
      const tryIt = card.getByTestId('port-try-it');
      expect(await tryIt.evaluate((el) => (el as HTMLDetailsElement).open), 'Try it is open on a new port').toBe(true);
      await card.getByText(t('en', 'proxies:tryIt.summary'), { exact: true }).waitFor();
      const { http, socks } = await shown(card);
      const auth = `${encodeURIComponent(port.login)}:${encodeURIComponent(port.password)}`;
      expect(http).toBe(`curl -x http://${auth}@${port.host}:${port.http_port} ${server.url}/api/v1/ip`);
      expect(socks).toBe(`curl -x socks5h://${auth}@${port.host}:${port.socks_port} ${server.url}/api/v1/ip`);
    }

    // The disclosure works from the keyboard: Enter on its summary closes and opens it again.
    const summary = cards[1]!.getByTestId('port-try-it').locator('summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    expect(await cards[1]!.getByTestId('port-try-it').evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    await page.keyboard.press('Enter');
    expect(await cards[1]!.getByTestId('port-try-it').evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);

    // The copy button copies exactly the line shown (what a person pastes into the terminal).
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const httpRow = cards[0]!.getByTestId('port-curl-http').locator('xpath=..');
    await httpRow.getByRole('button', { name: t('en', 'proxies:copy') }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe((await shown(cards[0]!)).http);

    // ---- each line, as printed, reaches the site through the proxy from the IP the card shows ----
    for (const card of cards) {
      await expect.poll(() => agreesWithCard(card, 'http'), { timeout: 30_000, interval: 500 }).toBe('same');
      expect(await agreesWithCard(card, 'socks')).toBe('same');
    }
    const ips = await Promise.all(cards.map(async (card) => (await shown(card)).ip));
    expect(ips[0]).toMatch(/^127\.0\.\d{1,3}\.\d{1,3}$/);
    expect(ips[1]).toMatch(/^127\.0\.\d{1,3}\.\d{1,3}$/);
    expect(ips[0], 'two dedicated ports send from two addresses').not.toBe(ips[1]);
    // The API says the same as the page.
    const again = await (await page.context().request.get(`${server.url}/api/v1/modems`)).json() as Port[];
    expect(newIds.map((id) => again.find((p) => p._id === id)!.ext_ip)).toEqual(ips);

    await toastsGone(page);
    await visitCheck(page, 'proxy-traffic-proxies');

    // ---- rotate the first port from the page: the next request shows the new IP the page shows ----
    const [cardA, cardB] = cards as [Locator, Locator];
    await cardA.getByRole('button', { name: exact(t('en', 'proxies:rotate.button')) }).click();
    await expect.poll(() => cardA.getByTestId('rotation-result').textContent(), { timeout: 30_000 }).toContain('→');
    const [oldIp, newIp] = (await cardA.getByTestId('rotation-result').textContent())!.split('→').map((s) => s.trim());
    expect(oldIp).toBe(ips[0]);
    expect(newIp).not.toBe(oldIp);
    await expect.poll(() => cardA.getByTestId('port-ip').textContent()).toBe(newIp);
    const afterRotation = await shown(cardA);
    const viaHttp = await sh(afterRotation.http);
    expect(ipOf(viaHttp), describeRun(viaHttp)).toBe(newIp);
    const viaSocks = await sh(afterRotation.socks);
    expect(ipOf(viaSocks), describeRun(viaSocks)).toBe(newIp);
    const other = await sh((await shown(cardB)).http);
    expect(ipOf(other), `the other port keeps its IP: ${describeRun(other)}`).toBe(ips[1]);
    await toastsGone(page);
    await visitCheck(page, 'proxy-traffic-proxies-rotated');
    const lines = await Promise.all(cards.map((card) => shown(card)));

    // The same page on a phone and in Russian and Chinese, Try it open on the new ports.
    await page.setViewportSize(phoneViewport);
    await visitCheck(page, 'proxy-traffic-proxies-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const lng of ['ru', 'cn'] as Language[]) {
      await page.goto(`${server.url}/${lng}/proxies?new=${newIds.join(',')}`);
      await heading(page, t(lng, 'proxies:title')).waitFor();
      await page.getByText(t(lng, 'proxies:tryIt.summary'), { exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle');
      await visitCheck(page, `proxy-traffic-proxies-${lng}`);
    }

    // ---- the bytes appear on the Traffic page (the demo agent reports every 10 s) ----
    const trafficRow = async (name: string): Promise<string[] | null> => {
      await page.goto(`${server.url}/en/traffic`);
      await heading(page, t('en', 'common:nav.traffic')).waitFor();
      await page.getByTestId('traffic-total-in').or(page.getByRole('heading', { name: exact(t('en', 'traffic:empty.title')) })).waitFor();
      const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
      if ((await row.count()) === 0) return null;
      return (await row.first().getByRole('cell').allTextContents()).map((s) => s.trim());
    };
    for (const port of bought) {
      await expect.poll(() => trafficRow(port.modem_name), { timeout: 60_000, interval: 2000 })
        .toEqual([expect.any(String), port.modem_name, expect.not.stringMatching(/^0 B$/), expect.not.stringMatching(/^0 B$/)]);
    }
    const from = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const to = new Date(Date.now() + 5 * 60 * 1000).toISOString();
    for (const port of bought) {
      const response = await page.context().request.get(`${server.url}/api/v1/traffic?${new URLSearchParams({ from, to, port_id: port._id })}`);
      const { totals } = await response.json() as { totals: { bytesIn: string; bytesOut: string } };
      expect(BigInt(totals.bytesIn) + BigInt(totals.bytesOut), `traffic of ${port.modem_name}`).toBeGreaterThan(0n);
    }
    await page.getByLabel(t('en', 'traffic:filters.port'), { exact: true }).selectOption({ label: bought[0]!.modem_name });
    await page.getByTestId('traffic-total-in').waitFor();
    await page.waitForLoadState('networkidle');
    await visitCheck(page, 'proxy-traffic-traffic');

    // ---- open downloads through both ports, then the operator deactivates the customer ----
    const downloadVia = (line: string) => shBackground(`${line.replace(`${server.url}/api/v1/ip`, `${site.url}/download`)} -sS -o /dev/null`);
    const downloads: Running[] = [downloadVia(lines[0]!.http), downloadVia(lines[1]!.socks)];
    try {
      await expect.poll(() => site.downloads.map((d) => `${d.remoteAddress} ${d.bytesSent > 64 * 1024 ? 'flowing' : 'starting'}`).sort(),
        { timeout: 15_000 }).toEqual([`${newIp} flowing`, `${ips[1]} flowing`].sort());
      expect(downloads.map((d) => d.result()), 'the downloads are still running').toEqual([null, null]);

      // The customer's tab leaves the dashboard: its session ends with the deactivation.
      await page.goto('about:blank');
      const ops = await browser.secondContext();
      try {
        await signIn(ops.page, server.url, 'en', operator, { redirect: '/en/admin' });
        await ops.page.waitForURL(`${server.url}/en/admin`);
        await ops.page.goto(`${server.url}/en/admin/customers`);
        await heading(ops.page, t('en', 'admin:nav.customers')).waitFor();
        await ops.page.getByLabel(t('en', 'admin:customers.search')).fill('demo@');
        await ops.page.getByRole('link', { name: demo.email, exact: true }).click();
        await heading(ops.page, 'Demo Customer').waitFor();
        await ops.page.getByRole('button', { name: exact(t('en', 'admin:customers.deactivate')) }).click();
        const dialog = ops.page.getByRole('dialog');
        await dialog.getByRole('heading', { name: t('en', 'admin:customers.confirm.deactivate.title') }).waitFor();
        const answered = ops.page.waitForResponse((r) => r.request().method() === 'POST' && /\/customers\/[^/]+\/deactivate$/.test(r.url()));
        await dialog.getByRole('button', { name: exact(t('en', 'admin:customers.confirm.deactivate.button')) }).click();
        expect((await answered).status()).toBe(200);
        const deactivatedAt = Date.now();

        // Within 3 s: both lines of both ports are refused, and both downloads are cut.
        const refusals = async () => {
          const runs = await Promise.all(lines.flatMap((l) => [sh(l.http, 3000), sh(l.socks, 3000)]));
          const through = runs.filter((r) => isIp(ipOf(r)));
          return through.length === 0 ? 'refused' : `still carried: ${through.map(describeRun).join('; ')}`;
        };
        await expect.poll(refusals, { timeout: 3000, interval: 100 }).toBe('refused');
        const refusedAfter = Date.now() - deactivatedAt;
        const cut = await Promise.race([
          Promise.all(downloads.map((d) => d.done)),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, 3000 - (Date.now() - deactivatedAt)))),
        ]);
        expect(cut, 'both downloads end within 3 s of the deactivation').not.toBeNull();
        const cutAfter = Date.now() - deactivatedAt;
        for (const result of cut!) expect(result.code, `a cut download fails: ${describeRun(result)}`).not.toBe(0);
        await expect.poll(() => site.downloads.every((d) => d.closed)).toBe(true);
        console.log(`deactivation → new connections refused after ${refusedAfter} ms, open downloads cut after ${cutAfter} ms`);

        // The operator sees the account deactivated and the note that its proxies refuse every connection.
        await ops.page.getByText(t('en', 'admin:customers.deactivatedNote')).waitFor();
        await ops.page.getByText(t('en', 'admin:customers.deactivatedToast')).waitFor({ state: 'hidden', timeout: 10_000 });
        await visitCheck(ops.page, 'proxy-traffic-operator-deactivated');
      } finally {
        await ops.context.close();
      }
    } finally {
      for (const d of downloads) d.kill();
    }
  }, 240_000);
});
