// Two-factor sign-in: turned on from the account page (the secret read off the page, codes made the way an
// authenticator app makes them), then the code step at sign-in; a code that worked once never works again.
import { expect, test } from 'vitest';
import { useBrowser, visitCheck } from './support/browser.js';
import { authenticator, demo, expectDashboard, formAlert, signIn, signOut } from './support/flows.js';
import { exact, startsWith, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'two-factor' });
const browser = useBrowser();
const demoName = 'Demo Customer';

test('enable 2FA on the account page, sign in with a code, and the same code fails the second time', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', demoName);

  await page.goto(`${server.url}/en/account`);
  // The card's heading carries its On/Off badge, so its name starts with the title.
  const card = page.locator('section', { has: page.getByRole('heading', { level: 2, name: startsWith(t('en', 'account:twoFactor.title')) }) });
  await card.getByRole('button', { name: exact(t('en', 'account:twoFactor.setUp')) }).click();
  const secretText = await card.getByLabel(t('en', 'account:twoFactor.secret'), { exact: true }).textContent();
  const secret = (secretText ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await card.getByRole('img', { name: t('en', 'account:twoFactor.qrAlt') }).waitFor();
  await visitCheck(page, 'account-2fa-setup');

  const code = authenticator(secret);
  await card.getByLabel(t('en', 'account:twoFactor.confirmCode'), { exact: true }).fill(code());
  await card.getByRole('button', { name: exact(t('en', 'account:twoFactor.enable')) }).click();
  await card.getByText(t('en', 'account:twoFactor.on'), { exact: true }).waitFor();
  await visitCheck(page, 'account-2fa-on');

  await signOut(page, server.url, 'en');
  // The code of the NEXT 30-second step: the one used to turn 2FA on is spent (and ±1 step is accepted).
  const signInCode = code(1);
  // Entered as an authenticator app shows it, with a space: "123 456" (issue 27).
  await signIn(page, server.url, 'en', { ...demo, code: () => `${signInCode.slice(0, 3)} ${signInCode.slice(3)}` }, { prefix: '2fa' });
  await expectDashboard(page, server.url, 'en', demoName);
  await visitCheck(page, '2fa-dashboard');

  await signOut(page, server.url, 'en');
  await signIn(page, server.url, 'en', { ...demo, code: () => signInCode });
  await expect.poll(() => formAlert(page).textContent()).toBe(t('en', 'errors:WRONG_CODE'));
  expect(new URL(page.url()).pathname).toBe('/en/sign-in');
  await visitCheck(page, '2fa-code-reused');
});
