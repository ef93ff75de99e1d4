// Issue 27, item 10, in a real browser: Your Proxies exports the ports in the formats antidetect browsers import;
// the SOCKS5 URL file that downloads holds each port's SOCKS5 port and percent-encoded credentials, as the API has
// them. axe on the export with its format list.
import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import type { Port } from '../packages/shared/src/schemas/catalog.js';
import { buyDedicatedPort } from './support/api.js';
import { useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'proxy-export' });
const browser = useBrowser();

test('export the ports as socks5:// URLs and as host:port:user:pass lines of the SOCKS5 port', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  await buyDedicatedPort(page.request, server.url);
  const ports = (await (await page.request.get(`${server.url}/api/v1/modems`)).json()) as Port[];
  expect(ports.length).toBeGreaterThan(0);

  await page.goto(`${server.url}/en/proxies`);
  const exportCard = page.locator('section[aria-labelledby="px-export-title"]');
  const format = exportCard.getByLabel(t('en', 'proxies:export.format'), { exact: true });
  const download = async (value: string): Promise<string[]> => {
    await format.selectOption(value);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      exportCard.getByRole('button', { name: exact(t('en', 'proxies:export.download')) }).click(),
    ]);
    expect(file.suggestedFilename()).toBe(`proxies-${value}.txt`);
    return (await readFile((await file.path())!, 'utf8')).trim().split('\n');
  };

  const urls = await download('socks-url');
  expect(urls.map((line) => new URL(line)).map((u) => ({
    host: u.hostname, port: Number(u.port), login: decodeURIComponent(u.username), password: decodeURIComponent(u.password),
  }))).toEqual(ports.map((p) => ({ host: p.host, port: p.socks_port, login: p.login, password: p.password })));
  expect(await download('socks-colon')).toEqual(ports.map((p) => `${p.host}:${p.socks_port}:${p.login}:${p.password}`));
  await visitCheck(page, 'proxy-export');
});
