// Issue 17 item 4, "a ticket round trip works in a real browser": a customer opens a request about their port from
// Your Proxies with a PNG screenshot; an operator (a second browser context, its own session) finds it in the
// console's inbox, takes it, and answers with a canned reply; the customer's open conversation shows the answer
// without a reload and the bell has a notification that links to it; the customer replies; the operator sees the
// reply (the console polls) and closes the ticket, which the customer's page shows live too. Every page is
// screenshotted and checked with axe, on a desktop and on a phone.
import { deflateSync } from 'node:zlib';
import type { APIRequestContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { phoneViewport, shot, useBrowser, visitCheck } from './support/browser.js';
import { createOperator, demo, expectDashboard, signIn } from './support/flows.js';
import { exact, t, type Language } from './support/locales.js';
import { apiCall, buyDedicatedPort } from './support/api.js';
import { useServer } from './support/server.js';

const server = useServer({ name: 'support' });
const browser = useBrowser();
const operator = { email: 'support-ops@cellport.test', password: '' };

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);

const s = (key: string, values?: Record<string, string | number>) => t('en', `support:${key}`, values);
const a = (key: string, values?: Record<string, string | number>) => t('en', `admin:${key}`, values);
const button = (page: Page, text: string) => page.getByRole('button', { name: exact(text) });
const heading = (page: Page, text: string | RegExp) => page.getByRole('heading', { level: 1, name: typeof text === 'string' ? exact(text) : text });

// ---- a real PNG (what a screenshot is), made here ----------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
/** A width × height RGB PNG: a blue band over a grey field, so a thumbnail shows something. */
function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x += 1) rows.set(y < height / 3 ? [23, 70, 162] : [220, 226, 236], row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- helpers ---------------------------------------------------------------------------------------------------------

/** A same-origin API call with the session of `request`'s context. */
const call = <T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown) =>
  apiCall<T>(request, server.url, method, path, data);


/** Toasts close after 3 s: screenshots and axe should see the page. */
async function toastsGone(page: Page) {
  await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 10_000 }).toBe(0);
}


const thread = (page: Page) => page.getByTestId('support-thread');
const messages = (page: Page) => page.getByTestId('support-message');

describe('support tickets', () => {
  test('a request with a screenshot, an answer from a canned reply seen live, a reply, closed by the operator', async () => {
    const { page, context } = browser;
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');

    // A port to ask about, bought from the demo balance.
    await buyDedicatedPort(context.request, server.url);
    const [port] = await call<Array<{ _id: string; modem_name: string }>>(context.request, 'GET', '/modems');

    // The empty Support page, reached from the sidebar.
    await page.getByRole('link', { name: exact(t('en', 'common:nav.tickets')) }).click();
    await page.waitForURL(`${server.url}/en/support`);
    await heading(page, s('title')).waitFor();
    await page.getByRole('heading', { name: exact(s('empty.title')) }).waitFor();
    await visitCheck(page, 'support-empty');

    // "Get help" on the port's card opens a new request about that port.
    await page.goto(`${server.url}/en/proxies`);
    await page.getByRole('link', { name: exact(t('en', 'proxies:help.for', { name: port!.modem_name })) }).click();
    await page.waitForURL(`${server.url}/en/support?port=${port!._id}`);
    const form = page.locator('form', { has: page.getByRole('heading', { name: exact(s('form.title')) }) });
    await expect.poll(async () => (await form.getByLabel(s('form.port')).inputValue())).toBe(port!._id);

    // Sending with nothing filled in says what is missing, beside each field.
    await form.getByRole('button', { name: exact(s('form.send')) }).click();
    await form.getByText(s('form.subjectError')).waitFor();
    await form.getByText(s('form.messageError')).waitFor();

    const subject = `Port ${port!.modem_name} drops connections`;
    const body = 'Since this morning every third request through the HTTP port times out. Screenshot attached.';
    await form.getByLabel(s('form.subject')).fill(subject);
    await form.getByLabel(s('form.message')).fill(body);
    // A file that is no image is refused before any upload, with the reason; the PNG is uploaded with progress.
    const input = form.getByTestId('attachment-input');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await form.getByText(s('attach.refused.type', { name: 'notes.txt' })).waitFor();
    await input.setInputFiles({ name: 'timeout.png', mimeType: 'image/png', buffer: png(320, 200) });
    const item = form.getByTestId('attachment-item');
    await item.getByText('timeout.png').waitFor();
    await item.getByText(s('attach.uploaded')).waitFor();
    await expect.poll(() => item.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    await visitCheck(page, 'support-new-request');

    await form.getByRole('button', { name: exact(s('form.send')) }).click();
    await page.waitForURL(new RegExp(`^${server.url}/en/support/[0-9a-f-]{36}$`));
    const ticketUrl = page.url();
    const ticketId = ticketUrl.split('/').pop()!;
    await heading(page, new RegExp(`^#\\d+ ${subject}$`)).waitFor();
    const number = Number((await heading(page, new RegExp(subject)).textContent())!.match(/#(\d+)/)![1]);
    await thread(page).getByText(body).waitFor();
    await page.getByTestId('ticket-state').getByText(s('state.customer.open'), { exact: true }).waitFor();
    // The screenshot is on the server: its thumbnail loads from there, and opens full size.
    const thumb = thread(page).getByRole('button', { name: exact(s('thread.openImage', { name: 'timeout.png' })) });
    await expect.poll(() => thumb.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
    await toastsGone(page);
    await thumb.click();
    const lightbox = page.getByRole('dialog', { name: 'timeout.png' });
    await lightbox.getByRole('img', { name: 'timeout.png' }).waitFor();
    await visitCheck(page, 'support-screenshot-full-size');
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
    await toastsGone(page);
    await visitCheck(page, 'support-ticket-customer');

    // The page stays as it is from here: a reload would clear this mark.
    await page.evaluate(() => { (window as unknown as { supportMark: number }).supportMark = 1; });

    // ---- the operator, in a browser of their own ----
    const ops = await browser.secondContext();
    try {
      const op = ops.page;
      await signIn(op, server.url, 'en', operator, { redirect: '/en/admin/support/canned' });
      await op.waitForURL(`${server.url}/en/admin/support/canned`);
      await heading(op, a('support.canned.title')).waitFor();
      await op.getByText(a('support.canned.empty')).waitFor();

      // A canned reply, made on its page.
      const cannedTitle = 'Port restarted';
      const cannedBody = 'We restarted the modem behind your port and the timeouts are gone on our side. Could you check again?';
      await button(op, a('support.canned.add')).click();
      const dialog = op.getByRole('dialog');
      await dialog.getByLabel(a('support.canned.name')).fill(cannedTitle);
      await dialog.getByLabel(a('support.canned.text')).fill(cannedBody);
      await visitCheck(op, 'admin-support-canned-dialog');
      await dialog.getByRole('button', { name: exact(a('support.canned.add')) }).click();
      await dialog.waitFor({ state: 'detached' });
      await op.getByTestId('canned-replies').getByRole('cell', { name: cannedTitle, exact: true }).waitFor();
      await toastsGone(op);
      await visitCheck(op, 'admin-support-canned');

      // The inbox: the new ticket under Open, unread, and the sidebar counts it.
      await op.getByRole('link', { name: `← ${a('support.back')}` }).click();
      await heading(op, a('nav.support')).waitFor();
      const row = op.getByTestId('support-inbox').getByRole('row').filter({ hasText: subject });
      await row.waitFor();
      await row.getByText(a('support.unread')).waitFor();
      await row.getByText(demo.email).waitFor();
      await row.getByRole('cell', { name: port!.modem_name, exact: true }).waitFor();
      await expect.poll(() => op.getByTestId('support-nav-badge').textContent()).toMatch(/^\d+/);
      expect(await op.getByRole('tab', { name: new RegExp(`^${t('en', 'support:state.operator.open')} \\(\\d+\\)$`) }).getAttribute('aria-selected')).toBe('true');
      // Searching by the number finds it; by something else, nothing.
      await op.getByLabel(a('support.search')).fill(`#${number}`);
      await expect.poll(() => op.getByTestId('support-inbox').getByRole('row').count()).toBe(2);
      await row.waitFor();
      await visitCheck(op, 'admin-support-inbox');
      await op.getByLabel(a('support.search')).fill('no such ticket anywhere');
      await op.getByText(a('support.noMatch')).waitFor();
      await op.getByLabel(a('support.search')).fill('');
      await row.waitFor();

      // The ticket: assigned to themself, answered with the canned reply (then waiting on the customer).
      await row.getByRole('link', { name: new RegExp(subject) }).click();
      await op.waitForURL(`${server.url}/en/admin/support/${ticketId}`);
      await heading(op, new RegExp(`^#${number} ${subject}$`)).waitFor();
      await thread(op).getByText(body).waitFor();
      await thread(op).getByRole('button', { name: exact(s('thread.openImage', { name: 'timeout.png' })) }).waitFor();
      await op.getByRole('link', { name: demo.email }).first().waitFor();
      await button(op, a('support.assignToMe')).click();
      await expect.poll(async () => {
        const select = op.getByLabel(a('support.assignee'), { exact: true });
        return select.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? '');
      }).toMatch(/\(me\)$/);
      await op.getByLabel(a('support.canned.insert')).selectOption({ label: cannedTitle });
      await button(op, a('support.canned.insertButton')).click();
      await expect.poll(() => op.getByLabel(s('reply.message')).inputValue()).toBe(cannedBody);
      expect(await op.getByLabel(a('support.thenState')).inputValue()).toBe('waiting');
      await toastsGone(op);
      await visitCheck(op, 'admin-support-ticket-reply');
      await button(op, a('support.send')).click();
      await thread(op).getByText(cannedBody).waitFor();
      await op.getByTestId('ticket-state').getByText(s('state.operator.waiting'), { exact: true }).waitFor();

      // ---- the customer's open page, without a reload ----
      await thread(page).getByText(cannedBody).waitFor({ timeout: 20_000 });
      await page.getByTestId('ticket-state').getByText(s('state.customer.waiting'), { exact: true }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { supportMark?: number }).supportMark)).toBe(1);
      // The bell: the server's unread notifications (not payments; jobs may add others at any time) include the
      // answer, and the open page's bell shows as many as the server has.
      const unread = async () => (await call<{ data: Array<{ type: string; unread: boolean; text: string }> }>(context.request, 'GET', '/notifications'))
        .data.filter((n) => n.type !== 'payment' && n.unread);
      await expect.poll(async () => (await unread()).some((n) => n.text.includes(`#${number}`)), { timeout: 20_000 }).toBe(true);
      const bellShown = async () => Number((await page.getByTestId('bell-count').count()) ? await page.getByTestId('bell-count').textContent() : 0);
      await expect.poll(async () => (await bellShown()) === (await unread()).length, { timeout: 20_000 }).toBe(true);
      await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
      const note = page.getByRole('link', { name: new RegExp(`#${number}`) }).first();
      await note.waitFor();
      expect(await note.getAttribute('href')).toBe(`/en/support/${ticketId}`);
      await visitCheck(page, 'support-bell-notification');
      await page.keyboard.press('Escape');

      // The customer answers (with a second screenshot).
      const answer = 'Thanks, it works now. One more question: can I keep this IP for a week?';
      await page.getByLabel(s('reply.message')).fill(answer);
      await page.getByTestId('attachment-input').setInputFiles({ name: 'works.png', mimeType: 'image/png', buffer: png(160, 90) });
      await page.getByTestId('attachment-item').getByText(s('attach.uploaded')).waitFor();
      await button(page, s('reply.send')).click();
      await thread(page).getByText(answer).waitFor();
      await expect.poll(() => messages(page).count()).toBe(3);
      await page.getByTestId('ticket-state').getByText(s('state.customer.open'), { exact: true }).waitFor();

      // ---- the operator sees it (the ticket is polled) and closes the ticket ----
      await thread(op).getByText(answer).waitFor({ timeout: 20_000 });
      await thread(op).getByRole('button', { name: exact(s('thread.openImage', { name: 'works.png' })) }).waitFor();
      await op.getByLabel(a('support.state'), { exact: true }).selectOption('closed');
      await button(op, a('actions.save')).click();
      await op.getByTestId('ticket-state').getByText(s('state.operator.closed'), { exact: true }).waitFor();
      await toastsGone(op);
      await visitCheck(op, 'admin-support-ticket-closed');
      await op.setViewportSize(phoneViewport);
      await visitCheck(op, 'admin-support-ticket-phone');
      await op.goto(`${server.url}/en/admin/support`);
      await op.getByRole('tab', { name: exact(t('en', 'support:state.operator.closed')) }).click();
      await op.getByTestId('support-inbox').getByRole('row').filter({ hasText: subject }).waitFor();
      await visitCheck(op, 'admin-support-inbox-phone');
    } finally {
      await ops.context.close();
    }

    // The customer's page shows it closed, still without a reload; the list says so too.
    await page.getByTestId('ticket-state').getByText(s('state.customer.closed'), { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByText(s('ticket.closedNote')).waitFor();
    expect(await page.evaluate(() => (window as unknown as { supportMark?: number }).supportMark)).toBe(1);
    await visitCheck(page, 'support-ticket-closed');
    await page.setViewportSize(phoneViewport);
    await visitCheck(page, 'support-ticket-phone');
    await page.getByRole('link', { name: s('ticket.back') }).click();
    const listed = page.getByTestId('support-ticket-row').filter({ hasText: subject });
    await listed.getByText(s('state.customer.closed'), { exact: true }).waitFor();
    await visitCheck(page, 'support-list-phone');
    await shot(page, 'support-list-phone-final');
  });

  test('pasted screenshots and refused files; the conversation in ru and cn, on the console too, on a phone', async () => {
    const { page, context } = browser;
    await signIn(page, server.url, 'en', demo);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');
    const { ticket } = await call<{ ticket: { _id: string; number: number } }>(context.request, 'POST', '/support/tickets', {
      subject: 'Invoice for October', body: 'Please send the October invoice with our company name on it.',
    });

    // A screenshot pasted into the message box is attached and uploaded; a file over 5 MB is refused before upload.
    await page.goto(`${server.url}/en/support/${ticket._id}`);
    const box = page.getByLabel(s('reply.message'));
    await box.fill('Here is what the invoice page shows.');
    await box.evaluate((element, bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, [...png(200, 120)]);
    const pasted = page.getByTestId('attachment-item');
    await pasted.getByText(/^screenshot-[\d-]+\.png$/).waitFor();
    await pasted.getByText(s('attach.uploaded')).waitFor();
    expect(await box.inputValue()).toBe('Here is what the invoice page shows.');
    const big = Buffer.concat([png(10, 10), Buffer.alloc(5 * 1024 * 1024)]);
    await page.getByTestId('attachment-input').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big });
    await page.getByText(s('attach.refused.size', { name: 'huge.png', max: 5 })).waitFor();
    expect(await pasted.count()).toBe(1);
    await visitCheck(page, 'support-reply-pasted-and-refused');
    await button(page, s('reply.send')).click();
    await expect.poll(() => messages(page).count()).toBe(2);
    await thread(page).getByRole('button', { name: /screenshot-[\d-]+\.png/ }).waitFor();

    // An operator answers through the console's API, so each language has a two-sided conversation to show. The
    // customer has left the conversation (an open one reads the answer at once), so the list marks it.
    await page.goto(`${server.url}/en/dashboard`);
    await expectDashboard(page, server.url, 'en', 'Demo Customer');
    const ops = await browser.secondContext();
    try {
      const op = ops.page;
      await signIn(op, server.url, 'en', operator, { redirect: '/en/admin/support' });
      await op.waitForURL(`${server.url}/en/admin/support`);
      const answered = await ops.context.request.post(`${server.url}/api/v1/admin/support/tickets/${ticket._id}/messages`, {
        data: { body: 'Sent to your e-mail a minute ago.' }, headers: { origin: server.url },
      });
      expect(answered.status(), await answered.text()).toBe(201);

      const rawKey = /\b(?:support|admin|common):[\w.]+|\b(?:form|attach|thread|ticket|state|reply|list|canned|assigneeFilter)\.[a-z]\w*(?:\.\w+)*/;
      const noRawKeys = async (p: Page, where: string) => {
        const text = await p.locator('body').innerText();
        expect(text.match(rawKey)?.[0] ?? null, `a raw key on ${where}`).toBeNull();
      };
      for (const lng of ['ru', 'cn'] as Language[]) {
        for (const phone of [false, true]) {
          const suffix = `${lng}${phone ? '-phone' : ''}`;
          await page.setViewportSize(phone ? phoneViewport : { width: 1280, height: 800 });
          await op.setViewportSize(phone ? phoneViewport : { width: 1280, height: 800 });

          await page.goto(`${server.url}/${lng}/support`);
          await heading(page, t(lng, 'support:title')).waitFor();
          await page.getByTestId('support-ticket-row').first().waitFor();
          // The answer is marked on the list until the customer opens the request (the first visit, in ru).
          if (lng === 'ru' && !phone) {
            const row = page.getByTestId('support-ticket-row').filter({ hasText: 'Invoice for October' });
            await row.getByTestId('ticket-unread').getByText(t(lng, 'support:list.newReply'), { exact: true }).waitFor();
          } else {
            expect(await page.getByTestId('ticket-unread').count()).toBe(0);
          }
          await noRawKeys(page, `${lng}/support`);
          await visitCheck(page, `support-list-${suffix}`);
          await button(page, t(lng, 'support:newRequest')).click();
          await page.getByRole('heading', { name: exact(t(lng, 'support:form.title')) }).waitFor();
          await noRawKeys(page, `${lng}/support new request`);
          await visitCheck(page, `support-new-request-${suffix}`);

          await page.goto(`${server.url}/${lng}/support/${ticket._id}`);
          await thread(page).getByText('Sent to your e-mail a minute ago.').waitFor();
          await page.getByTestId('ticket-state').getByText(t(lng, 'support:state.customer.waiting'), { exact: true }).waitFor();
          await noRawKeys(page, `${lng}/support/:id`);
          await visitCheck(page, `support-ticket-${suffix}`);

          await op.goto(`${server.url}/${lng}/admin/support`);
          await heading(op, t(lng, 'admin:nav.support')).waitFor();
          await op.getByRole('tab', { name: new RegExp(`^${t(lng, 'support:state.operator.waiting')}`) }).click();
          await op.getByTestId('support-inbox').getByText('Invoice for October').waitFor();
          await noRawKeys(op, `${lng}/admin/support`);
          await visitCheck(op, `admin-support-inbox-${suffix}`);
          await op.goto(`${server.url}/${lng}/admin/support/${ticket._id}`);
          await thread(op).getByText('Sent to your e-mail a minute ago.').waitFor();
          await noRawKeys(op, `${lng}/admin/support/:id`);
          await visitCheck(op, `admin-support-ticket-${suffix}`);
          await op.goto(`${server.url}/${lng}/admin/support/canned`);
          await heading(op, t(lng, 'admin:support.canned.title')).waitFor();
          await op.getByTestId('canned-replies').waitFor();
          await noRawKeys(op, `${lng}/admin/support/canned`);
          await visitCheck(op, `admin-support-canned-${suffix}`);
        }
      }
    } finally {
      await ops.context.close();
    }
  }, 180_000);
});

