// Issue 27, item 8 and issue 28, item 11, in a real browser: Add Proxies shows what a choice buys (ports in stock,
// download and upload speed and latency measured by the embedded agent's own speed tests through the modem's
// egress, UDP checked against the server's UDP echo, the carrier's ASN), opens on a choice in stock when the first
// one is sold out, and marks the sold-out choice. Screenshots and axe in en, ru and cn, desktop and phone.
import { expect, test } from 'vitest';
import type { CatalogOffer, Country, Tariff } from '../packages/shared/src/schemas/catalog.js';
import { apiCall } from './support/api.js';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, startsWith, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'catalog-offers' });
const browser = useBrowser();

test('Add Proxies shows measured speeds, latency, UDP, ASN and stock; opens on a choice in stock', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  const countries = await apiCall<Country[]>(page.request, server.url, 'GET', '/countries');
  const us = countries[0]!;
  const firstCarrier = us.carriers[0]!;
  const offers = async () => (await apiCall<{ offers: CatalogOffer[] }>(page.request, server.url, 'GET', '/catalog/offers')).offers;
  const dedicated = (list: CatalogOffer[]) => list.find((o) => o.country_id === us._id && o.carrier_id === firstCarrier._id && o.region_id === null && !o.isShared)!;

  // The embedded agent tests each demo modem a few seconds after it starts; the server keeps the medians.
  await expect.poll(async () => dedicated(await offers()).measured, { timeout: 120_000, interval: 1000 }).toBeGreaterThan(0);
  const measured = dedicated(await offers());
  expect(measured.downMbps).toBeGreaterThan(0);
  expect(measured.upMbps).toBeGreaterThan(0);
  expect(measured.udp).toBe(true);
  expect(measured.asn).toBe(firstCarrier.asn);
  expect(firstCarrier.asn).toBeGreaterThan(0);

  // ---- the first choice as the page opens: its facts are the API's
  await page.goto(`${server.url}/en/add-proxy`);
  const facts = page.getByTestId('offer-facts');
  await facts.waitFor();
  expect(await page.getByRole('radio', { name: exact(firstCarrier.name) }).isChecked()).toBe(true);
  const fact = (name: string) => facts.locator('div', { has: page.locator('dt', { hasText: exact(name) }) }).locator('dd');
  await expect.poll(() => fact(t('en', 'catalog-offers:download')).textContent()).toMatch(/Mbit\/s$/);
  expect(await fact(t('en', 'catalog-offers:udp')).textContent()).toBe(t('en', 'catalog-offers:udpYes'));
  expect(await fact(t('en', 'catalog-offers:asn')).textContent()).toBe(`AS${firstCarrier.asn}`);
  expect(await fact(t('en', 'catalog-offers:stock')).textContent()).toBe(t('en', `catalog-offers:inStock_${measured.inStock === 1 ? 'one' : 'other'}`, { count: measured.inStock }));

  // ---- the first carrier's dedicated ports sell out: the page opens on its shared ports and marks dedicated sold out
  const tariffs = await apiCall<Tariff[]>(page.request, server.url, 'GET', '/tariffs');
  const tariff = tariffs.find((x) => x.country_id === us._id && !x.isShared && (x.carrier_id === null || x.carrier_id === firstCarrier._id))!;
  await apiCall(page.request, server.url, 'POST', '/payment/balance/buy?lng=en', {
    tariff_id: tariff._id, country_id: us._id, carrier_id: firstCarrier._id, region_id: null, isShared: false,
    rotationInterval: tariff.rotationInterval, modemCount: measured.inStock,
  });
  await expect.poll(async () => dedicated(await offers()).inStock).toBe(0);

  for (const lng of ['en', 'ru', 'cn'] as const) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/${lng}/add-proxy`);
    await page.getByTestId('offer-facts').waitFor();
    expect(await page.getByRole('radio', { name: startsWith(t(lng, 'add-proxy:type.shared')) }).isChecked(), lng).toBe(true);
    const dedicatedChip = page.locator('label.ap-chip', { has: page.getByRole('radio', { name: startsWith(t(lng, 'add-proxy:type.dedicated')) }) });
    expect(await dedicatedChip.locator('.ap-chip__sold-out').textContent()).toBe(t(lng, 'catalog-offers:soldOut'));
    const lngFacts = page.getByTestId('offer-facts');
    const lngFact = (name: string) => lngFacts.locator('div', { has: page.locator('dt', { hasText: exact(name) }) }).locator('dd');
    expect(await lngFact(t(lng, 'catalog-offers:download')).textContent()).toContain(t(lng, 'catalog-offers:mbps', { value: '' }).trim());
    await lngFacts.scrollIntoViewIfNeeded();
    await visitCheck(page, `catalog-offers-${lng}`);
    await page.setViewportSize(phoneViewport);
    await lngFacts.scrollIntoViewIfNeeded();
    await visitCheck(page, `catalog-offers-${lng}-phone`);
  }

  // Choosing the sold-out choice says so, and its facts still show what was measured.
  await page.goto(`${server.url}/en/add-proxy`);
  await page.getByRole('radio', { name: startsWith(t('en', 'add-proxy:type.dedicated')) }).check();
  await expect.poll(() => page.getByTestId('offer-facts').locator('.ap-offer__fact--sold-out dd').textContent()).toBe(t('en', 'catalog-offers:soldOut'));
});
