import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { io as connect, type Socket } from 'socket.io-client';
import type { SupportTicketEvent } from '@cellport/shared/schemas/support';
import { announced } from '../../../test/announcements.js';
import { call, signedIn, type Signed } from '../../../test/console-helpers.js';
import { buildCountingApp, type CountingApp } from '../notifications/test-support.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';

// Support tickets (issue 17 item 4), end to end through the HTTP API on a real database: a customer's ticket
// about their port with a screenshot, the console's inbox, assignment, a canned reply, both sides notified (bell,
// e-mail in the sandbox outbox, realtime), and everything that must be refused.

/** The smallest real PNG (1×1, transparent). */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a40000000049454e44ae426082', 'hex');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(14)]);

let t: CountingApp;
let url: string;
let customer: Customer & { email: string };
let other: Customer;
let portId: string;
let otherPortId: string;
let olga: Signed;
let ivan: Signed;
const sockets: Socket[] = [];

const upload = (cookie: string, body: Buffer | string, type: string, name = 'screen.png', path = '/api/v1/support/attachments') =>
  t.app.inject({
    method: 'POST', url: `${path}?name=${encodeURIComponent(name)}`,
    headers: { cookie, origin: t.config.publicUrl, 'content-type': type }, payload: body,
  });
const post = (cookie: string, path: string, body?: unknown) => t.app.inject({ method: 'POST', url: path, ...json(cookie, body) });
const get = (cookie: string, path: string) => t.app.inject({ method: 'GET', url: path, ...json(cookie) });

/**
 * The e-mails to `to` once the app is settled: a notification's e-mail leaves after its commit's NOTIFY has been heard,
 * so this waits for that (a sentinel NOTIFY) and for the sends it started (buildCountingApp's settled()).
 */
async function settledMails(to: string) {
  await t.settled();
  return mails(to);
}
const mails = (to: string) => t.ctx.db.selectFrom('mail_outbox').select(['subject', 'text', 'html']).where('to_email', '=', to).orderBy('created_at').execute();
const keysOf = async (userId: string) => (await t.ctx.db.selectFrom('notifications').select('text_key')
  .where('user_id', '=', userId).orderBy('created_at').execute()).map((n) => n.text_key);

async function buyPort(c: Customer, countryId: string, tariffId: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: tariffId, country_id: countryId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(res.statusCode, res.body).toBe(200);
  return (await t.ctx.db.selectFrom('ports').select('id').where('user_id', '=', c.id).executeTakeFirstOrThrow()).id;
}

beforeAll(async () => {
  t = await buildCountingApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}`;
  const cat = await seedTestCatalog(t);
  const c = await createCustomer(t, 100);
  customer = { ...c, email: `c-${c.id}@test.local` };
  other = await createCustomer(t, 100);
  portId = await buyPort(customer, cat.usId, cat.dedicatedMonth.id);
  otherPortId = await buyPort(other, cat.usId, cat.dedicatedMonth.id);
  olga = await signedIn(t, 'admin', { name: 'Olga' });
  ivan = await signedIn(t, 'admin', { name: 'Ivan' });
}, 60_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

async function customerSocket(c: Customer): Promise<Socket> {
  const token = (await get(c.cookie, '/api/v1/token')).json().token as string;
  const socket = connect(url, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('connect_error', reject); });
  return socket;
}
const nextEvent = (socket: Socket) => new Promise<SupportTicketEvent>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no support_ticket event')), 30_000);
  socket.once('support_ticket', (data: SupportTicketEvent) => { clearTimeout(timer); resolve(data); });
});

describe('support tickets', () => {
  it('round trip: a ticket about a port with a screenshot, the inbox, assignment, a canned reply, the customer\'s reply, closing', async () => {
    // The customer uploads a screenshot, then opens a ticket about their port with it.
    const up = await upload(customer.cookie, PNG, 'image/png', 'modem «screen».png');
    expect(up.statusCode, up.body).toBe(201);
    const attachment = up.json().attachment;
    expect(attachment).toMatchObject({ name: 'modem «screen».png', type: 'image/png', size: PNG.length });
    const opened = await post(customer.cookie, '/api/v1/support/tickets', {
      subject: 'Port drops every hour', body: 'Since Monday my port disconnects. Screenshot attached.', portId, attachments: [attachment._id],
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const ticket = opened.json().ticket;
    expect(ticket).toMatchObject({
      subject: 'Port drops every hour', state: 'open', unread: false, port: { _id: portId },
      messages: [{ author: 'customer', authorName: null, body: 'Since Monday my port disconnects. Screenshot attached.', attachments: [attachment] }],
    });
    expect(ticket.number).toBeGreaterThanOrEqual(1001);
    const listed = (await get(customer.cookie, '/api/v1/support/tickets')).json().tickets;
    expect(listed).toEqual([expect.objectContaining({ _id: ticket._id, number: ticket.number, unread: false })]);

    // Unassigned: every operator hears of it in the bell and by e-mail.
    expect(await keysOf(olga.id)).toEqual(['support_ticket_new']);
    expect(await keysOf(ivan.id)).toEqual(['support_ticket_new']);
    const opMail = await settledMails(olga.email);
    expect(opMail).toHaveLength(1);
    expect(opMail[0]!.subject).toBe('Support: a customer is waiting');
    expect(opMail[0]!.text).toContain(`New support request #${ticket.number} from ${customer.email}: “Port drops every hour”`);
    expect(opMail[0]!.text).toContain(`/en/admin/support/${ticket._id}`);

    // The inbox: open, unassigned, unread for the operators.
    const inbox = (await call(t, olga.cookie, 'GET', '/api/v1/admin/support/tickets?state=open&assignee=none')).json();
    expect(inbox).toMatchObject({ total: 1, items: [{ _id: ticket._id, unread: true, customer: { _id: customer.id, email: customer.email }, assignee: null, port: { _id: portId } }] });
    expect((await call(t, olga.cookie, 'GET', `/api/v1/admin/support/tickets?q=%23${ticket.number}`)).json().total).toBe(1);
    expect((await call(t, olga.cookie, 'GET', '/api/v1/admin/support/tickets?q=drops%20every')).json().total).toBe(1);
    expect((await call(t, olga.cookie, 'GET', '/api/v1/admin/support/tickets?q=nothing-like-this')).json().total).toBe(0);
    expect((await call(t, olga.cookie, 'GET', '/api/v1/admin/support/tickets?state=waiting')).json().total).toBe(0);
    expect((await call(t, olga.cookie, 'GET', '/api/v1/admin/support/summary')).json()).toEqual({ open: 1, waiting: 0, unassigned: 1, mine: 0 });
    const seen = (await call(t, olga.cookie, 'GET', `/api/v1/admin/support/tickets/${ticket._id}`)).json().ticket;
    expect(seen.messages[0]).toMatchObject({ authorName: customer.email, attachments: [attachment] });
    expect((await call(t, olga.cookie, 'GET', '/api/v1/admin/support/tickets')).json().items[0].unread).toBe(false);
    // Operators read the screenshot at the customer path.
    const opFile = await get(olga.cookie, `/api/v1/support/attachments/${attachment._id}`);
    expect(opFile.statusCode).toBe(200);
    expect(opFile.rawPayload.equals(PNG)).toBe(true);

    // Olga takes it and answers with a canned reply; the customer's open dashboard hears it.
    const operators = (await call(t, olga.cookie, 'GET', '/api/v1/admin/support/operators')).json().items;
    expect(operators).toEqual(expect.arrayContaining([{ _id: olga.id, name: 'Olga' }, { _id: ivan.id, name: 'Ivan' }]));
    const assigned = await call(t, olga.cookie, 'PATCH', `/api/v1/admin/support/tickets/${ticket._id}`, { assigneeId: olga.id });
    expect(assigned.json().ticket.assignee).toEqual({ _id: olga.id, name: 'Olga' });
    expect((await call(t, olga.cookie, 'GET', '/api/v1/admin/support/tickets?assignee=me')).json().total).toBe(1);
    expect((await call(t, ivan.cookie, 'GET', '/api/v1/admin/support/tickets?assignee=me')).json().total).toBe(0);
    expect((await call(t, olga.cookie, 'GET', '/api/v1/admin/support/summary')).json()).toEqual({ open: 1, waiting: 0, unassigned: 0, mine: 1 });
    const canned = await call(t, olga.cookie, 'POST', '/api/v1/admin/support/canned-replies', { title: 'Restart', body: 'Please restart the port from the dashboard and tell us if it helps.' });
    expect(canned.statusCode, canned.body).toBe(201);
    const cannedReply = canned.json().item;
    expect((await call(t, ivan.cookie, 'GET', '/api/v1/admin/support/canned-replies')).json().items).toEqual([cannedReply]);

    const socket = await customerSocket(customer);
    const event = nextEvent(socket);
    const replied = await call(t, olga.cookie, 'POST', `/api/v1/admin/support/tickets/${ticket._id}/messages`, { body: cannedReply.body });
    expect(replied.statusCode, replied.body).toBe(201);
    expect(replied.json().ticket).toMatchObject({ state: 'waiting', messages: [{ author: 'customer' }, { author: 'operator', authorName: 'Olga', body: cannedReply.body }] });
    const heard = await event;
    expect(heard).toMatchObject({ ticket: { _id: ticket._id, state: 'waiting', unread: true }, message: { author: 'operator', authorName: 'Olga', body: cannedReply.body } });

    // The customer: a bell notification naming the ticket and linking to it, and an e-mail.
    const bell = (await get(customer.cookie, '/api/v1/notifications')).json().data;
    expect(bell[0]).toMatchObject({ text: `Support answered your request #${ticket.number} “Port drops every hour”.`, link: `/support/${ticket._id}`, unread: true });
    const customerMail = await settledMails(customer.email);
    const answer = customerMail.find((x) => x.subject === 'Reply to your support request')!;
    expect(answer.text).toContain(`#${ticket.number}`);
    expect(answer.text).toContain(`/en/support/${ticket._id}`);
    expect((await get(customer.cookie, '/api/v1/support/tickets')).json().tickets[0]).toMatchObject({ state: 'waiting', unread: true });
    const read = (await get(customer.cookie, `/api/v1/support/tickets/${ticket._id}`)).json().ticket;
    expect(read).toMatchObject({ unread: false, messages: [{}, { authorName: 'Olga' }] });

    // The customer answers: open again, and only the assignee hears of it.
    const back = await post(customer.cookie, `/api/v1/support/tickets/${ticket._id}/messages`, { body: 'Restarted, it still drops.' });
    expect(back.statusCode, back.body).toBe(201);
    expect(back.json().ticket).toMatchObject({ state: 'open' });
    expect(back.json().ticket.messages).toHaveLength(3);
    expect(await keysOf(olga.id)).toEqual(['support_ticket_new', 'support_customer_reply']);
    expect(await keysOf(ivan.id)).toEqual(['support_ticket_new']);
    expect((await call(t, olga.cookie, 'GET', '/api/v1/admin/support/tickets')).json().items[0]).toMatchObject({ state: 'open', unread: true });

    // Olga closes it (the customer hears the state); the customer closes and reopens by replying.
    const closing = nextEvent(socket);
    const closed = await call(t, olga.cookie, 'PATCH', `/api/v1/admin/support/tickets/${ticket._id}`, { state: 'closed' });
    expect(closed.json().ticket.state).toBe('closed');
    expect(await closing).toMatchObject({ ticket: { _id: ticket._id, state: 'closed' } });
    expect((await post(customer.cookie, `/api/v1/support/tickets/${ticket._id}/messages`, { body: 'Sorry, one more thing.' })).json().ticket.state).toBe('open');
    const byCustomer = await post(customer.cookie, `/api/v1/support/tickets/${ticket._id}/close`);
    expect(byCustomer.statusCode).toBe(200);
    expect(byCustomer.json().ticket.state).toBe('closed');

    // Every console write is in the audit log.
    const audit = await t.ctx.db.selectFrom('audit_log').select(['action', 'admin_id']).where('target_id', 'in', [ticket._id, cannedReply._id]).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['support-ticket.update', 'support-canned-reply.create', 'support-ticket.reply', 'support-ticket.update']);
    expect(new Set(audit.map((a) => a.admin_id))).toEqual(new Set([olga.id]));

    // The customer's own copy of the screenshot.
    const file = await get(customer.cookie, `/api/v1/support/attachments/${attachment._id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers).toMatchObject({ 'content-type': 'image/png', 'x-content-type-options': 'nosniff' });
    expect(String(file.headers['cache-control'])).toContain('private');
    expect(String(file.headers['content-disposition'])).toMatch(/^inline; filename="modem _screen_.png"; filename\*=UTF-8''modem%20%C2%ABscreen%C2%BB\.png$/);
    expect(file.rawPayload.equals(PNG)).toBe(true);
  }, 120_000);

  it('another customer gets 404 on the ticket and its attachment; a foreign port and someone else\'s upload are refused', async () => {
    const up = (await upload(customer.cookie, JPEG, 'image/jpeg', 'a.jpg')).json().attachment;
    const mine = (await post(customer.cookie, '/api/v1/support/tickets', { subject: 'Billing', body: 'Question', attachments: [up._id] })).json().ticket;
    expect(mine.port).toBeNull();
    for (const res of [
      await get(other.cookie, `/api/v1/support/tickets/${mine._id}`),
      await post(other.cookie, `/api/v1/support/tickets/${mine._id}/messages`, { body: 'mine now' }),
      await post(other.cookie, `/api/v1/support/tickets/${mine._id}/close`),
    ]) expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'SUPPORT_TICKET_NOT_FOUND' });
    const foreignFile = await get(other.cookie, `/api/v1/support/attachments/${up._id}`);
    expect({ status: foreignFile.statusCode, code: foreignFile.json().code }).toEqual({ status: 404, code: 'SUPPORT_ATTACHMENT_NOT_FOUND' });
    expect((await get(other.cookie, '/api/v1/support/tickets')).json().tickets).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/support/tickets' })).statusCode).toBe(401);

    const foreignPort = await post(customer.cookie, '/api/v1/support/tickets', { subject: 'x', body: 'y', portId: otherPortId });
    expect({ status: foreignPort.statusCode, code: foreignPort.json().code }).toEqual({ status: 404, code: 'SUPPORT_PORT_NOT_FOUND' });

    // Another customer's upload, and one a message already took, cannot be referenced; nothing is created.
    const theirs = (await upload(other.cookie, WEBP, 'image/webp', 'w.webp')).json().attachment;
    expect(theirs.type).toBe('image/webp');
    const before = await t.ctx.db.selectFrom('support_tickets').select('id').execute();
    for (const ids of [[theirs._id], [up._id]]) {
      const res = await post(customer.cookie, '/api/v1/support/tickets', { subject: 'x', body: 'y', attachments: ids });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: 'SUPPORT_ATTACHMENT_NOT_FOUND' });
      const reply = await post(customer.cookie, `/api/v1/support/tickets/${mine._id}/messages`, { body: 'y', attachments: ids });
      expect(reply.statusCode).toBe(404);
    }
    expect(await t.ctx.db.selectFrom('support_tickets').select('id').execute()).toHaveLength(before.length);
    expect((await get(customer.cookie, `/api/v1/support/tickets/${mine._id}`)).json().ticket.messages).toHaveLength(1);
    const five = await Promise.all(Array.from({ length: 5 }, async () => (await upload(customer.cookie, PNG, 'image/png')).json().attachment._id as string));
    const tooMany = await post(customer.cookie, '/api/v1/support/tickets', { subject: 'x', body: 'y', attachments: five });
    expect({ status: tooMany.statusCode, code: tooMany.json().code }).toEqual({ status: 400, code: 'SUPPORT_TOO_MANY_ATTACHMENTS' });
  }, 60_000);

  it('checks uploads: over 5 MiB is 413, bytes that are not the declared image are 415', async () => {
    const max = 5 * 1024 * 1024;
    const justFits = Buffer.concat([PNG, Buffer.alloc(max - PNG.length)]);
    expect((await upload(customer.cookie, justFits, 'image/png')).statusCode).toBe(201);
    for (const size of [max + 1, max + 2 * 1024 * 1024]) {
      const res = await upload(customer.cookie, Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]), 'image/png');
      expect({ size, status: res.statusCode, code: res.json().code }).toEqual({ size, status: 413, code: 'SUPPORT_ATTACHMENT_TOO_LARGE' });
    }
    const cases: Array<[Buffer | string, string]> = [
      ['just some text, renamed to .png', 'image/png'],
      [PNG, 'image/jpeg'],
      [JPEG, 'image/webp'],
      [PNG, 'text/plain'],
      [PNG, 'image/gif'],
      ['{"a":1}', 'application/json'],
      [Buffer.alloc(0), 'image/png'],
    ];
    for (const [body, type] of cases) {
      const res = await upload(customer.cookie, body, type, 'notes.png');
      expect({ type, status: res.statusCode, code: res.json().code }).toEqual({ type, status: 415, code: 'SUPPORT_ATTACHMENT_TYPE' });
    }
    const visitor = await t.app.inject({ method: 'POST', url: '/api/v1/support/attachments', headers: { 'content-type': 'image/png', origin: t.config.publicUrl }, payload: PNG });
    expect(visitor.statusCode).toBe(401);
  }, 60_000);

  it('holds a customer to 50 MB of uploads a day (the dashboard shows SUPPORT_UPLOAD_QUOTA in its language); operators are not held to it', async () => {
    const heavy = await createCustomer(t, 10);
    // 50 MiB already uploaded in the last day, as ten rows that say 5 MiB each (the bytes themselves do not matter).
    const fill = async (userId: string, hoursAgo: number) => t.ctx.db.insertInto('support_attachments').values(
      Array.from({ length: 10 }, () => ({
        uploaded_by: userId, message_id: null, name: 'big.png', type: 'image/png' as const, size: 5 * 1024 * 1024, data: PNG,
        created_at: new Date(Date.now() - hoursAgo * 3_600_000),
      }))).returning('id').execute();
    const rows = await fill(heavy.id, 1);
    const refused = await upload(heavy.cookie, PNG, 'image/png');
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({ status: 429, code: 'SUPPORT_UPLOAD_QUOTA' });

    // A day later the budget is back.
    // created_at is not updatable through the typed builder (it is set once by the database).
    await sql`update support_attachments set created_at = now() - interval '25 hours'
      where id in (${sql.join(rows.map((r) => r.id))})`.execute(t.ctx.db);
    expect((await upload(heavy.cookie, PNG, 'image/png')).statusCode).toBe(201);

    await fill(olga.id, 1);
    expect((await upload(olga.cookie, PNG, 'image/png', 'reply.png', '/api/v1/admin/support/attachments')).statusCode).toBe(201);
  }, 60_000);

  it('deletes uploads no message took after 24 hours, and keeps attached ones', async () => {
    const loose = (await upload(other.cookie, PNG, 'image/png')).json().attachment._id as string;
    const kept = (await upload(other.cookie, PNG, 'image/png')).json().attachment._id as string;
    await post(other.cookie, '/api/v1/support/tickets', { subject: 'Keep', body: 'With a screenshot', attachments: [kept] });
    const exists = async (id: string) => Boolean(await t.ctx.db.selectFrom('support_attachments').select('id').where('id', '=', id).executeTakeFirst());
    await t.app.jobs.runDueJobs(new Date(Date.now() + 23 * 3_600_000));
    expect(await exists(loose)).toBe(true);
    await t.app.jobs.runDueJobs(new Date(Date.now() + 25 * 3_600_000));
    expect(await exists(loose)).toBe(false);
    expect(await exists(kept)).toBe(true);
  }, 60_000);

  it('a reply too long for one NOTIFY still reaches the open dashboard, as the ticket without its message', async () => {
    const opened = (await post(customer.cookie, '/api/v1/support/tickets', { subject: 'Long answer', body: 'Tell me everything' })).json().ticket;
    const socket = await customerSocket(customer);
    const event = nextEvent(socket);
    const long = 'я'.repeat(5000); // 10,000 bytes of UTF-8: over PostgreSQL's 8000-byte NOTIFY payload
    const replied = await call(t, olga.cookie, 'POST', `/api/v1/admin/support/tickets/${opened._id}/messages`, { body: long });
    expect(replied.statusCode, replied.body).toBe(201);
    const heard = await event;
    expect(heard.ticket).toMatchObject({ _id: opened._id, state: 'waiting', unread: true });
    expect(heard.message).toBeUndefined();
    expect((await get(customer.cookie, `/api/v1/support/tickets/${opened._id}`)).json().ticket.messages[1].body).toBe(long);
  }, 60_000);

  it('reaches Telegram when linked: a customer\'s chat gets replies, an operator\'s chat the support alerts', async () => {
    await t.ctx.db.insertInto('telegram_links').values([
      { user_id: other.id, chat_id: `chat-${other.id}`, chat_name: 'other', kinds: JSON.stringify(['support_reply']) },
      { user_id: ivan.id, chat_id: `chat-${ivan.id}`, chat_name: 'ivan', kinds: JSON.stringify([]) },
    ]).execute();
    const opened = (await post(other.cookie, '/api/v1/support/tickets', { subject: 'Telegram', body: 'Hello' })).json().ticket;
    await call(t, ivan.cookie, 'POST', `/api/v1/admin/support/tickets/${opened._id}/messages`, { body: 'Hi there', state: 'open' });
    await announced(t);
    const telegram = async (userId: string, key: string) => (await t.ctx.db.selectFrom('notifications').select('telegram')
      .where('user_id', '=', userId).where('text_key', '=', key).orderBy('created_at', 'desc').executeTakeFirstOrThrow()).telegram;
    expect(await telegram(other.id, 'support_reply')).not.toBeNull();
    expect(await telegram(ivan.id, 'support_ticket_new')).not.toBeNull();
    expect(await telegram(olga.id, 'support_ticket_new')).toBeNull();
    expect((await get(other.cookie, `/api/v1/support/tickets/${opened._id}`)).json().ticket.state).toBe('open');
  }, 60_000);

  it('an operator assigned a ticket by another hears of it (bell with the link, e-mail, Telegram); taking it yourself or unassigning tells nobody', async () => {
    await t.ctx.db.insertInto('telegram_links').values({ user_id: ivan.id, chat_id: `chat-${ivan.id}`, chat_name: 'ivan', kinds: JSON.stringify([]) })
      .onConflict((oc) => oc.column('user_id').doNothing()).execute();
    const opened = (await post(other.cookie, '/api/v1/support/tickets', { subject: 'Billing question', body: 'Who can help?' })).json().ticket;
    const assigned = async (userId: string) => t.ctx.db.selectFrom('notifications').select(['text', 'email', 'telegram'])
      .where('user_id', '=', userId).where('text_key', '=', 'support_assigned')
      .where(sql<boolean>`params->>'ticket' = ${opened._id}`).orderBy('created_at').execute();
    const countOf = async (userId: string) => Number((await t.ctx.db.selectFrom('notifications')
      .select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n);
    const patch = async (who: Signed, assigneeId: string | null) => {
      const res = await call(t, who.cookie, 'PATCH', `/api/v1/admin/support/tickets/${opened._id}`, { assigneeId });
      expect(res.statusCode, res.body).toBe(200);
    };
    const subject = 'Support: a request was assigned to you';

    // Olga hands it to Ivan: Ivan's bell names the ticket and links to it, his e-mail opens it, his chat gets it.
    const before = { olga: await countOf(olga.id), ivan: await countOf(ivan.id) };
    await patch(olga, ivan.id);
    expect(await assigned(ivan.id)).toHaveLength(1);
    expect((await assigned(ivan.id))[0]!.telegram).not.toBeNull();
    expect(await countOf(olga.id)).toBe(before.olga);
    const bell = (await get(ivan.cookie, '/api/v1/notifications')).json().data;
    expect(bell[0]).toMatchObject({
      text: `Olga assigned support request #${opened.number} “Billing question” to you.`, link: `/admin/support/${opened._id}`, unread: true,
    });
    const mail = await settledMails(ivan.email);
    const handed = mail.filter((x) => x.subject === subject);
    expect(handed).toHaveLength(1);
    expect(handed[0]!.text).toContain(`Olga assigned support request #${opened.number} “Billing question” to you.`);
    expect(handed[0]!.text).toContain(`/en/admin/support/${opened._id}`);
    expect(handed[0]!.html).toContain(`/en/admin/support/${opened._id}`);

    // The same assignee again, Olga taking it herself, unassigning, Ivan taking it himself: nobody is notified.
    const quiet = { olga: await countOf(olga.id), ivan: await countOf(ivan.id) };
    await patch(olga, ivan.id);
    await patch(olga, olga.id);
    await patch(olga, null);
    await patch(ivan, ivan.id);
    expect(await countOf(olga.id)).toBe(quiet.olga);
    expect(await countOf(ivan.id)).toBe(quiet.ivan);

    // Ivan hands it back to Olga (no Telegram linked): her bell and e-mail, in her own words of it.
    await patch(ivan, olga.id);
    expect(await assigned(olga.id)).toMatchObject([{ text: `Ivan assigned support request #${opened.number} “Billing question” to you.`, email: expect.anything(), telegram: null }]);
    expect(await assigned(ivan.id)).toHaveLength(1);
    const olgaMail = await settledMails(olga.email);
    expect(olgaMail.filter((x) => x.subject === subject)).toHaveLength(1);
    expect((await settledMails(ivan.email)).filter((x) => x.subject === subject)).toHaveLength(1);
  }, 60_000);
});
