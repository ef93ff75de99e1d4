// An account deactivated by the operator CLI (`npm run admin -- deactivate EMAIL`, run against the stopped
// server's database) loses its sessions and cannot sign in: 'Your account deactivated by admin!'.
import { expect, test } from 'vitest';
import { useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, formAlert, signIn, submitSignIn } from './support/flows.js';
import { t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'deactivated' });
const browser = useBrowser();

test('a deactivated account is signed out and cannot sign in', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');

  // PGlite allows one process: the CLI runs while the server is stopped (on PostgreSQL it would not need to).
  // The tab leaves the dashboard first: its polling would meet a closed port; the cookie stays in the browser.
  await page.goto('about:blank');
  await server.stop();
  const result = await server.admin('deactivate', demo.email);
  expect(result, result.stderr).toMatchObject({ code: 0 });
  expect(result.stdout).toContain(`${demo.email} is deactivated: it cannot sign in; 1 session(s) ended.`);
  await server.start();

  // The session ended with the deactivation: the dashboard sends this browser to sign-in.
  await page.goto(`${server.url}/en/dashboard`);
  await page.waitForURL(`${server.url}/en/sign-in?redirect=%2Fen%2Fdashboard`);
  await page.waitForLoadState('networkidle');
  await submitSignIn(page, 'en', demo);
  await expect.poll(() => formAlert(page).textContent()).toBe(t('en', 'errors:ACCOUNT_DEACTIVATED'));
  expect(t('en', 'errors:ACCOUNT_DEACTIVATED')).toBe('Your account deactivated by admin!');
  await visitCheck(page, 'sign-in-deactivated');
});
