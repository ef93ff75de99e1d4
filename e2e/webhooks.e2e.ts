// Issue 16, item 1, in a real browser: the demo customer registers a webhook endpoint on the Account page, copies
// the signing secret shown once, sends a test event, and the delivery arrives at a receiver on 127.0.0.1, signed
// the Standard Webhooks way (verified with the standardwebhooks package, not our code); the page's delivery log
// shows it delivered with the receiver's answer. axe on the card with its secret dialog and with the log.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { verifyDelivery, WebhookReceiver } from '../apps/server/test/webhook-receiver.js';
import { useBrowser, visitCheck } from './support/browser.js';
import { demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t } from './support/locales.js';
import { repoRoot, useServer } from './support/server.js';

/** An event type's name on the page (the keys hold dots, e.g. "port.rotated", so they are read whole). */
const eventName = (type: string) =>
  (JSON.parse(readFileSync(`${repoRoot}packages/shared/locales/en/webhooks.json`, 'utf8')) as { event: Record<string, string> }).event[type]!;

let receiver: WebhookReceiver;
let receiverUrl = '';
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  receiverUrl = `${receiver.url}/hooks/cellport`;
});
afterAll(async () => { await receiver?.stop(); });

// The job runner ticks often, so the delivery goes out within a second of being queued.
const server = useServer({ name: 'webhooks', env: { JOBS_POLL_MS: '300' } });
const browser = useBrowser();

test('register a webhook on Account, send a test event, and it arrives signed at a local receiver', async () => {
  const { page } = browser;
  await signIn(page, server.url, 'en', demo);
  await expectDashboard(page, server.url, 'en', 'Demo Customer');
  await page.goto(`${server.url}/en/account`);
  const card = page.locator('section[aria-labelledby="account-webhooks-title"]');
  await card.getByRole('heading', { name: t('en', 'webhooks:title') }).waitFor();

  await card.getByLabel(t('en', 'webhooks:url')).fill(receiverUrl);
  await card.getByRole('checkbox', { name: eventName('port.rotated') }).check();
  await card.getByRole('button', { name: exact(t('en', 'webhooks:add')) }).click();
  const secretDialog = page.getByRole('dialog', { name: t('en', 'webhooks:createdTitle') });
  const secret = (await secretDialog.getByTestId('webhook-secret').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await visitCheck(page, 'webhooks-secret');
  await secretDialog.getByRole('button', { name: exact(t('en', 'webhooks:done')) }).click();
  await card.getByText(receiverUrl).waitFor();

  // Send test event: it arrives, and verifies with the independent implementation.
  await card.getByRole('button', { name: exact(t('en', 'webhooks:sendTest')) }).click();
  const test = await receiver.next((r) => r.body.includes('webhook.test'), 30_000);
  expect((verifyDelivery(secret, test) as { type: string }).type).toBe('webhook.test');
  // A changed body does not verify: the check above is a real one.
  expect(() => verifyDelivery(secret, { ...test, body: `${test.body} ` })).toThrow();

  // The page's log shows it delivered, with the receiver's 204.
  const row = card.getByTestId('webhook-delivery').filter({ hasText: eventName('webhook.test') });
  await row.filter({ hasText: t('en', 'webhooks:status.succeeded') }).waitFor({ timeout: 30_000 });
  await row.filter({ hasText: '204' }).waitFor();
  await visitCheck(page, 'webhooks-log');
});
