// Issue 2, "Done when": a person signs up, confirms the e-mail from the outbox link, signs in and reaches the
// shell — in each language, with the real (altcha) captcha. Also the phone-sized screenshots of both pages.
import { describe, test } from 'vitest';
import { phoneViewport, useBrowser, visitCheck } from './support/browser.js';
import { confirmEmail, expectDashboard, newAccount, signUp, submitSignIn } from './support/flows.js';
import { exact, languages, t } from './support/locales.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'sign-up' });
const browser = useBrowser();

describe('sign-up → confirmation link → sign-in → dashboard', () => {
  for (const lng of languages) {
    test(`in ${lng}`, async () => {
      const { page } = browser;
      const account = newAccount(`signup-${lng}`, { company: 'Acme Mobile' });
      await signUp(page, server.url, lng, account, `${lng}-signup`);
      await confirmEmail(page, server.url, lng, account.email, `${lng}-signup`);

      // "Continue" goes to /{lng}: the shell, which sends a signed-out visitor to sign-in and back after it.
      await page.getByRole('link', { name: exact(t(lng, 'auth:emailVerified.continue')) })
        .or(page.getByRole('button', { name: exact(t(lng, 'auth:emailVerified.continue')) })).click();
      await page.waitForURL(`${server.url}/${lng}/sign-in?**`);
      await submitSignIn(page, lng, account, `${lng}-signup`);
      await expectDashboard(page, server.url, lng, account.name);
      await visitCheck(page, `${lng}-signup-dashboard`);

      if (lng === 'en') {
        await page.setViewportSize(phoneViewport);
        await visitCheck(page, 'phone-dashboard');
      }
    });
  }

  test('the sign-in page on a phone', async () => {
    const { page } = browser;
    await page.setViewportSize(phoneViewport);
    await page.goto(`${server.url}/en/sign-in`);
    await page.getByRole('heading', { level: 1, name: exact(t('en', 'auth:signIn.title')) }).waitFor();
    await visitCheck(page, 'phone-sign-in');
  });
});
