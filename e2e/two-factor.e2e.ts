// Two-factor sign-in: turned on from the account page (the secret read off the page, codes made the way an
// authenticator app makes them), then the code step at sign-in; a code that worked once never works again.
// Recovery codes (issue 27, item 5): shown once when it is turned on, each signs in once in place of the app's
// code, and a new set (confirmed with the password) replaces the old one.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
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
  const recoveryCodes = await shownRecoveryCodes(page);
  expect(recoveryCodes).toHaveLength(10);
  expect(new Set(recoveryCodes).size).toBe(10);
  await visitCheck(page, 'account-2fa-recovery-codes');
  await page.setViewportSize(phoneViewport);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phoneViewport.width);
  await visitCheck(page, 'account-2fa-recovery-codes-phone');
  await page.setViewportSize({ width: 1280, height: 900 });
  // Download gives the same codes as a text file.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: exact(t('en', 'account:recoveryCodes.download')) }).click(),
  ]);
  const file = await download.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  });
  for (const code of recoveryCodes) expect(file).toContain(code);
  await card.getByRole('button', { name: exact(t('en', 'account:recoveryCodes.saved')) }).click();
  // Shown once: gone once saved, and the card says how many are left.
  await card.getByText(t('en', 'account:recoveryCodes.left', { count: 10 }), { exact: true }).waitFor();
  expect(await page.getByRole('list', { name: t('en', 'account:recoveryCodes.listLabel') }).count()).toBe(0);
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

  // A lost phone: a recovery code in place of the app's code, typed in capitals; the app says how many are left.
  const [first, second] = recoveryCodes as [string, string];
  await signInWithRecoveryCode(page, first.toUpperCase());
  await expectDashboard(page, server.url, 'en', demoName);
  await page.getByText(t('en', 'shell:recoveryCodeUsed', { count: 9 }), { exact: true }).waitFor();

  // The same code again: refused.
  await signOut(page, server.url, 'en');
  await signInWithRecoveryCode(page, first);
  await expect.poll(() => formAlert(page).textContent()).toBe(t('en', 'errors:WRONG_CODE'));
  expect(new URL(page.url()).pathname).toBe('/en/sign-in');
  await visitCheck(page, '2fa-recovery-code-reused');

  // Another one works; then a new set, confirmed with the password, and the old codes stop working.
  await signInWithRecoveryCode(page, second);
  await expectDashboard(page, server.url, 'en', demoName);
  await page.goto(`${server.url}/en/account`);
  await card.getByText(t('en', 'account:recoveryCodes.left', { count: 8 }), { exact: true }).waitFor();
  await card.getByRole('button', { name: exact(t('en', 'account:recoveryCodes.regenerate')) }).click();
  const regenerate = page.getByRole('form', { name: t('en', 'account:recoveryCodes.regenerate') });
  await regenerate.getByLabel(t('en', 'account:recoveryCodes.password'), { exact: true }).fill(demo.password);
  await regenerate.getByRole('button', { name: exact(t('en', 'account:recoveryCodes.regenerate')) }).click();
  const fresh = await shownRecoveryCodes(page);
  expect(fresh).toHaveLength(10);
  expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
  await card.getByRole('button', { name: exact(t('en', 'account:recoveryCodes.saved')) }).click();
  await card.getByText(t('en', 'account:recoveryCodes.left', { count: 10 }), { exact: true }).waitFor();

  await signOut(page, server.url, 'en');
  await signInWithRecoveryCode(page, recoveryCodes[2]!);
  await expect.poll(() => formAlert(page).textContent()).toBe(t('en', 'errors:WRONG_CODE'));
  await signInWithRecoveryCode(page, fresh[0]!);
  await expectDashboard(page, server.url, 'en', demoName);
});

/** The codes of the recovery-codes panel, as shown. */
async function shownRecoveryCodes(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: t('en', 'account:recoveryCodes.listLabel') });
  await list.waitFor();
  return (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
}

/** Sign-in with the password, then the code step switched to a recovery code. */
async function signInWithRecoveryCode(page: Page, code: string): Promise<void> {
  await page.goto(`${server.url}/en/sign-in`);
  await page.getByLabel(t('en', 'auth:fields.email'), { exact: true }).fill(demo.email);
  await page.getByLabel(t('en', 'auth:fields.password'), { exact: true }).fill(demo.password);
  await page.getByRole('button', { name: exact(t('en', 'auth:signIn.submit')) }).click();
  await page.getByRole('button', { name: exact(t('en', 'auth:signIn.useRecovery')) }).click();
  await page.getByLabel(t('en', 'auth:fields.recoveryCode'), { exact: true }).fill(code);
  await page.getByRole('button', { name: exact(t('en', 'auth:signIn.verify')) }).click();
}
