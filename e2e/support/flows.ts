// The journeys specs share, built only from what a person does on the page: labels and buttons found by their
// texts in packages/shared/locales, in the language of the page.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { visitCheck } from './browser.js';
import { exact, t, type Language } from './locales.js';
import { outboxLink } from './outbox.js';
import type { E2EServer } from './server.js';

export const demo = { email: 'demo@cellport.local', password: 'Demo#2026' } as const;

/**
 * An operator account made with the CLI, as an operator installing Cellport does (beside the running server; on
 * PGlite it stops for the CLI, E2EServer.admin). Returns the e-mail and the password the CLI printed.
 */
export async function createOperator(server: E2EServer, email: string): Promise<{ email: string; password: string }> {
  const result = await server.admin('create', email);
  expect(result, result.stderr).toMatchObject({ code: 0 });
  const password = /Password: (\S+)/.exec(result.stdout)?.[1] ?? '';
  expect(password, result.stdout).not.toBe('');
  return { email, password };
}

export interface NewAccount { name: string; email: string; password: string; purpose: string; company?: string }

let counter = 0;
/** A unique account for this run (a fresh database per spec file, but several accounts per file). */
export function newAccount(tag: string, overrides: Partial<NewAccount> = {}): NewAccount {
  counter += 1;
  return {
    name: 'Alex Tester',
    email: `${tag}-${Date.now().toString(36)}-${counter}@example.com`,
    password: 'Str0ng#Pass',
    purpose: 'Social media account management for our marketing team',
    ...overrides,
  };
}

/** Screenshot + axe on the page as it is now, named `<prefix>-<step>`; nothing when no prefix is given. */
async function check(page: Page, prefix: string | undefined, step: string) {
  if (prefix) await visitCheck(page, `${prefix}-${step}`);
}

const heading = (page: Page, text: string) => page.getByRole('heading', { level: 1, name: exact(text) });
const button = (page: Page, text: string) => page.getByRole('button', { name: exact(text) });

/**
 * The three-step sign-up on /{lng}/sign-up, ending on the confirm-email page. With `prefix`, every step is
 * screenshotted and checked for accessibility.
 */
export async function signUp(page: Page, baseUrl: string, lng: Language, account: NewAccount, prefix?: string): Promise<void> {
  await page.goto(`${baseUrl}/${lng}/sign-up`);
  await heading(page, t(lng, 'auth:signUp.title')).waitFor();
  await page.getByLabel(t(lng, 'auth:fields.name'), { exact: true }).fill(account.name);
  if (account.company) await page.getByLabel(t(lng, 'auth:fields.company'), { exact: true }).fill(account.company);
  await page.getByLabel(t(lng, 'auth:fields.email'), { exact: true }).fill(account.email);
  await page.getByLabel(t(lng, 'auth:fields.password'), { exact: true }).fill(account.password);
  await check(page, prefix, 'sign-up-1-account');
  await button(page, t(lng, 'auth:signUp.next')).click();

  const purpose = page.getByLabel(t(lng, 'auth:fields.purpose'), { exact: true });
  await purpose.waitFor();
  await purpose.fill(account.purpose);
  await page.getByLabel(t(lng, 'auth:fields.websites'), { exact: true }).fill('instagram.com, amazon.com');
  await check(page, prefix, 'sign-up-2-usage');
  await button(page, t(lng, 'auth:signUp.next')).click();

  const terms = page.getByLabel(t(lng, 'auth:fields.terms'), { exact: true });
  await terms.waitFor();
  const create = button(page, t(lng, 'auth:signUp.create'));
  expect(await create.isDisabled(), 'Create account must wait for both boxes').toBe(true);
  await terms.check();
  expect(await create.isDisabled(), 'Create account must wait for the marketing box too').toBe(true);
  await page.getByLabel(t(lng, 'auth:fields.marketing'), { exact: true }).check();
  await check(page, prefix, 'sign-up-3-terms');
  await create.click();

  await page.waitForURL(`${baseUrl}/${lng}/confirm-email/**`);
  await heading(page, t(lng, 'auth:confirmEmail.title')).waitFor();
  await page.getByText(account.email, { exact: true }).waitFor();
  await check(page, prefix, 'confirm-email');
}

/** Opens the confirmation link from the dev outbox and lands on /{lng}/email-verified/{email}. */
export async function confirmEmail(page: Page, baseUrl: string, lng: Language, email: string, prefix?: string): Promise<void> {
  const link = await outboxLink(baseUrl, email, /https?:\/\/[^\s"<]+\/api\/v1\/verify-email\/[\w-]+/);
  await page.goto(link);
  await page.waitForURL(`${baseUrl}/${lng}/email-verified/**`);
  await heading(page, t(lng, 'auth:emailVerified.title')).waitFor();
  await check(page, prefix, 'email-verified');
}

export interface SignInInput {
  email: string;
  password: string;
  /** Makes the code for the two-factor step, when the account has one. */
  code?: () => string;
}

/**
 * Fills and submits the sign-in form on the page that is open (it must be /{lng}/sign-in), and the code step
 * when `code` is given. It does not wait for where the browser goes next: the caller asserts that.
 */
export async function submitSignIn(page: Page, lng: Language, input: SignInInput, prefix?: string): Promise<void> {
  await heading(page, t(lng, 'auth:signIn.title')).waitFor();
  await page.getByLabel(t(lng, 'auth:fields.email'), { exact: true }).fill(input.email);
  await page.getByLabel(t(lng, 'auth:fields.password'), { exact: true }).fill(input.password);
  await check(page, prefix, 'sign-in');
  await button(page, t(lng, 'auth:signIn.submit')).click();
  if (!input.code) return;
  const field = page.getByLabel(t(lng, 'auth:fields.code'), { exact: true });
  await field.waitFor();
  await check(page, prefix, 'sign-in-code-step');
  await field.fill(input.code());
  await button(page, t(lng, 'auth:signIn.verify')).click();
}

/** Opens /{lng}/sign-in (with a return path when given) and signs in. */
export async function signIn(page: Page, baseUrl: string, lng: Language, input: SignInInput, options: { redirect?: string; prefix?: string } = {}): Promise<void> {
  const query = options.redirect ? `?redirect=${encodeURIComponent(options.redirect)}` : '';
  await page.goto(`${baseUrl}/${lng}/sign-in${query}`);
  await submitSignIn(page, lng, input, options.prefix);
}

/** Waits for the dashboard of the shell: the URL and its welcome heading with the person's name. */
export async function expectDashboard(page: Page, baseUrl: string, lng: Language, name: string): Promise<void> {
  await page.waitForURL(new RegExp(`^${baseUrl}/${lng}(/dashboard)?/?$`));
  await heading(page, t(lng, 'pages:dashboard.welcome', { name })).waitFor();
}

/** Signs out through the user menu (a native form POST /signout), landing on sign-in. */
export async function signOut(page: Page, baseUrl: string, lng: Language): Promise<void> {
  // The trigger's name is the person's name plus the 'Account menu' text: match that part.
  await page.getByRole('button', { name: t(lng, 'shell:userMenu') }).click();
  await button(page, t(lng, 'shell:signOut')).click();
  await page.waitForURL(`${baseUrl}/${lng}/sign-in**`);
}

/** The error shown under the sign-in form (the alert the page renders). */
export function formAlert(page: Page) {
  return page.locator('form [role="alert"]');
}

/** Codes of an authenticator app for a base32 secret; `offsetSteps` moves to the next 30-second step. */
export function authenticator(secretBase32: string) {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
  return (offsetSteps = 0) => totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}
