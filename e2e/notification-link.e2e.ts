// The bell's notifications that link to a page (an operator's answer to a support request): following one opens
// the page, marks the notification read and closes the bell's popover, so the page it opened is not covered. Esc
// and a click outside still close the popover.
import type { APIRequestContext } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { t } from './support/locales.js';
import { apiCall } from './support/api.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'notification-link' });
const browser = useBrowser();
const operator = { email: 'bell-ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

/** A same-origin API call with the session of `request`'s context. */
const call = <T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown) =>
  apiCall<T>(request, server.url, method, path, data);

describe('notification links', () => {
  test('following a support answer from the bell opens the conversation, marks it read and closes the bell', async () => {
    const { page, context } = browser;
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');
    const { ticket } = await call<{ ticket: { _id: string; number: number } }>(context.request, 'POST', '/support/tickets', {
      subject: 'Bell link check', body: 'Does the bell get out of the way?',
    });

    // An operator answers, from a browser of their own.
    const ops = await browser.browser.newContext();
    try {
      const op = await ops.newPage();
      await signIn(op, server.url, 'en', operator, { redirect: '/en/admin/support' });
      await op.waitForURL(`${server.url}/en/admin/support`);
      await call(ops.request, 'POST', `/admin/support/tickets/${ticket._id}/messages`, { body: 'Yes, it closes when you follow the link.' });
    } finally {
      await ops.close();
    }

    // The customer's bell shows the answer (pushed live); Esc and a click outside close the popover as before.
    const unreadLabel = new RegExp(`^${t('en', 'notifications-ui:labelUnread', { count: 1 }).replace('1', '\\d+')}$`);
    const bell = page.getByRole('button', { name: unreadLabel });
    const panel = page.locator('.notifications-popover');
    const note = panel.getByRole('link', { name: new RegExp(`#${ticket.number}`) });
    await bell.click();
    await note.waitFor({ timeout: 20_000 });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    expect(await bell.getAttribute('aria-expanded')).toBe('false');
    await bell.click();
    await note.waitFor();
    await page.getByRole('heading', { level: 1 }).first().click();
    await panel.waitFor({ state: 'hidden' });

    // Following the link: the conversation, not covered by the bell, and the notification read.
    await bell.click();
    expect(await note.getAttribute('href')).toBe(`/en/support/${ticket._id}`);
    await note.click();
    await page.waitForURL(`${server.url}/en/support/${ticket._id}`);
    await page.getByTestId('support-thread').getByText('Yes, it closes when you follow the link.').waitFor();
    await panel.waitFor({ state: 'hidden' });
    expect(await page.getByRole('button', { name: new RegExp(`^${t('en', 'notifications-ui:label')}`) }).getAttribute('aria-expanded')).toBe('false');
    await expect.poll(async () => (await call<{ data: Array<{ text: string; unread: boolean }> }>(context.request, 'GET', '/notifications'))
      .data.filter((n) => n.text.includes(`#${ticket.number}`)).map((n) => n.unread), { timeout: 20_000 }).toEqual([false]);
    await visitCheck(page, 'notification-link-followed');
  });
});
