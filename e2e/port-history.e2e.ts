// Issue 27, item 9, in a real browser: the port card's "Uptime and IP history" shows uptime over 24 h, 7 d and 30 d
// and the IP a rotation gave, as the API has them; screenshots and axe in three languages, desktop and phone.
import { expect, test } from 'vitest';
import type { Port } from '../packages/shared/src/schemas/catalog.js';
import type { PortHistory } from '../packages/shared/src/schemas/port-history.js';
import { buyDedicatedPort } from './support/api.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'port-history', env: { MODEM_SIM_DELAY_MS: '300', MODEM_SIM_SAME_IP_RATE: '0' } });
const browser = useBrowser();

test('the port card shows uptime and the IP history, in en, ru and cn, on desktop and phone', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  await buyDedicatedPort(page.request, server.url);
  const [port] = (await (await page.request.get(`${server.url}/api/v1/modems`)).json()) as Port[];
  const rotated = await page.request.post(`${server.url}/api/v1/modems/${port!._id}/rotate`, { headers: { origin: server.url } });
  expect(rotated.status(), await rotated.text()).toBe(200);
  const { new_ip: newIp } = (await rotated.json()) as { new_ip: string };
  const history = (await (await page.request.get(`${server.url}/api/v1/modems/${port!._id}/history`)).json()) as PortHistory;
  expect(history.ips.map((e) => e.ip)).toEqual([newIp]);
  expect(history.uptime.day.ratio).toBe(1);

  for (const lng of ['en', 'ru', 'cn'] as const) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/${lng}/proxies`);
    const details = page.getByTestId('port-history');
    await details.getByText(t(lng, 'proxies:history.summary')).click();
    await details.getByTestId('port-uptime-day').waitFor();
    await details.getByText(t(lng, 'proxies:history.windows.month')).waitFor();
    await details.locator('code', { hasText: newIp }).waitFor();
    expect(await details.getByTestId('port-uptime-week').textContent()).toMatch(/100/);
    await details.scrollIntoViewIfNeeded();
    await visitCheck(page, `port-history-${lng}`);
    await page.setViewportSize(phoneViewport);
    await details.scrollIntoViewIfNeeded();
    await visitCheck(page, `port-history-${lng}-phone`);
  }
});
