// The harness itself: the built server starts on a fresh database, serves the app, and the browser checks work.
import { expect, test } from 'vitest';
import { checkA11y, shot, useBrowser } from './support/browser.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'harness' });
const browser = useBrowser();

test('the built server answers /readyz and serves the web app for a language path', async () => {
  const ready = await fetch(`${server.url}/readyz`);
  expect(await ready.json()).toEqual({ status: 'ready' });
  const { page } = browser;
  await page.goto(`${server.url}/en/sign-in`);
  await expect.poll(() => page.locator('h1').count()).toBeGreaterThan(0);
  await shot(page, 'harness-sign-in');
  await checkA11y(page, 'sign-in');
});

test('a console.error in the page is caught', async () => {
  const { page, errors } = browser;
  await page.goto(`${server.url}/en/sign-in`);
  await page.evaluate(() => console.error('deliberate'));
  expect(errors.some((e) => e.includes('deliberate'))).toBe(true);
  errors.length = 0; // handled here, so the test itself does not fail on it
});
