import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, type Customer } from '../../../test/fixtures.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';

// The console's support inbox (issue 17 item 4): filters and paging, the operators' checks and refusals.

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a40000000049454e44ae426082', 'hex');

let t: TestApp;
let admin: Signed;
let second: Signed;
let alice: Customer;
let bob: Customer;
const open = async (c: Customer, subject: string) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/support/tickets', ...json(c.cookie, { subject, body: `About ${subject}` }) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ticket as { _id: string; number: number };
};
const uploadAs = (cookie: string, body: Buffer | string, type: string) => t.app.inject({
  method: 'POST', url: '/api/v1/admin/support/attachments?name=answer.png',
  headers: { cookie, origin: t.config.publicUrl, 'content-type': type }, payload: body,
});

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signedIn(t, 'admin', { name: 'Anna' });
  second = await signedIn(t, 'admin', { name: 'Boris' });
  alice = await createCustomer(t);
  bob = await createCustomer(t);
});
afterAll(async () => { await t.close(); });

describe('console support inbox', () => {
  it('filters by state, assignee and search, pages, and counts for the badge', async () => {
    const a1 = await open(alice, 'Slow proxy');
    const a2 = await open(alice, 'Invoice address');
    const b1 = await open(bob, 'Cannot connect');
    await call(t, admin.cookie, 'PATCH', `/api/v1/admin/support/tickets/${a1._id}`, { assigneeId: second.id });
    await call(t, admin.cookie, 'POST', `/api/v1/admin/support/tickets/${a2._id}/messages`, { body: 'Which address?' });
    await call(t, admin.cookie, 'PATCH', `/api/v1/admin/support/tickets/${b1._id}`, { assigneeId: admin.id });

    const list = async (query: string) => (await call(t, admin.cookie, 'GET', `/api/v1/admin/support/tickets${query}`)).json();
    expect((await list('')).items.map((i: { _id: string }) => i._id)).toEqual([a2._id, b1._id, a1._id]); // newest activity first (the reply)
    expect((await list('?state=waiting')).items.map((i: { _id: string }) => i._id)).toEqual([a2._id]);
    expect((await list('?state=open')).total).toBe(2);
    expect((await list('?state=closed')).total).toBe(0);
    expect((await list('?assignee=me')).items.map((i: { _id: string }) => i._id)).toEqual([b1._id]);
    expect((await list(`?assignee=${second.id}`)).items).toMatchObject([{ _id: a1._id, assignee: { _id: second.id, name: 'Boris' } }]);
    expect((await list('?assignee=none')).items.map((i: { _id: string }) => i._id)).toEqual([a2._id]);
    expect((await list(`?q=${a1.number}`)).items.map((i: { _id: string }) => i._id)).toEqual([a1._id]);
    expect((await list(`?q=${encodeURIComponent(`c-${bob.id}`)}`)).items.map((i: { _id: string }) => i._id)).toEqual([b1._id]);
    expect((await list('?q=100%25')).total).toBe(0); // LIKE wildcards are literal
    const page = await list('?pageSize=2&page=2');
    expect(page).toMatchObject({ total: 3, totalCapped: false, page: 2, pageSize: 2 });
    expect(page.items.map((i: { _id: string }) => i._id)).toEqual([a1._id]);
    expect((await call(t, admin.cookie, 'GET', '/api/v1/admin/support/summary')).json()).toEqual({ open: 2, waiting: 1, unassigned: 1, mine: 1 });
    expect((await call(t, second.cookie, 'GET', '/api/v1/admin/support/summary')).json()).toEqual({ open: 2, waiting: 1, unassigned: 1, mine: 1 });
    expect((await call(t, admin.cookie, 'GET', '/api/v1/admin/support/tickets?state=pending')).statusCode).toBe(400);
    expect((await call(t, admin.cookie, 'GET', '/api/v1/admin/support/tickets?assignee=someone')).statusCode).toBe(400);
  });

  it('refuses what does not exist or is not an operator\'s, and changes nothing', async () => {
    const ticket = await open(alice, 'Refusals');
    const missing = '00000000-0000-4000-8000-000000000000';
    const codes = async (method: string, url: string, body?: unknown) => {
      const res = await call(t, admin.cookie, method, url, body);
      return { status: res.statusCode, code: res.json().code };
    };
    expect(await codes('GET', `/api/v1/admin/support/tickets/${missing}`)).toEqual({ status: 404, code: 'SUPPORT_TICKET_NOT_FOUND' });
    expect(await codes('POST', `/api/v1/admin/support/tickets/${missing}/messages`, { body: 'x' })).toEqual({ status: 404, code: 'SUPPORT_TICKET_NOT_FOUND' });
    expect(await codes('PATCH', `/api/v1/admin/support/tickets/${missing}`, { state: 'closed' })).toEqual({ status: 404, code: 'SUPPORT_TICKET_NOT_FOUND' });
    expect(await codes('PATCH', `/api/v1/admin/support/canned-replies/${missing}`, { title: 'x' })).toEqual({ status: 404, code: 'SUPPORT_CANNED_REPLY_NOT_FOUND' });
    expect(await codes('DELETE', `/api/v1/admin/support/canned-replies/${missing}`)).toEqual({ status: 404, code: 'SUPPORT_CANNED_REPLY_NOT_FOUND' });
    // Only an active operator can be assigned.
    expect(await codes('PATCH', `/api/v1/admin/support/tickets/${ticket._id}`, { assigneeId: alice.id })).toEqual({ status: 422, code: 'REFERENCE_INVALID' });
    expect(await codes('POST', `/api/v1/admin/support/tickets/${ticket._id}/messages`, { body: '   ' })).toMatchObject({ status: 400 });

    // Screenshots: the same checks as the customer's, and an operator references only their own uploads.
    expect((await uploadAs(admin.cookie, 'plain text', 'image/png')).json().code).toBe('SUPPORT_ATTACHMENT_TYPE');
    expect((await uploadAs(admin.cookie, Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'image/png')).json().code).toBe('SUPPORT_ATTACHMENT_TOO_LARGE');
    const customerUpload = (await t.app.inject({
      method: 'POST', url: '/api/v1/support/attachments', headers: { cookie: alice.cookie, origin: t.config.publicUrl, 'content-type': 'image/png' }, payload: PNG,
    })).json().attachment;
    const othersUpload = (await uploadAs(second.cookie, PNG, 'image/png')).json().attachment;
    for (const id of [customerUpload._id, othersUpload._id]) {
      expect(await codes('POST', `/api/v1/admin/support/tickets/${ticket._id}/messages`, { body: 'See this', attachments: [id] }))
        .toEqual({ status: 404, code: 'SUPPORT_ATTACHMENT_NOT_FOUND' });
    }
    const own = (await uploadAs(admin.cookie, PNG, 'image/png')).json().attachment;
    const replied = await call(t, admin.cookie, 'POST', `/api/v1/admin/support/tickets/${ticket._id}/messages`, { body: 'See this', attachments: [own._id], state: 'open' });
    expect(replied.statusCode, replied.body).toBe(201);
    expect(replied.json().ticket).toMatchObject({ state: 'open', messages: [{}, { author: 'operator', authorName: 'Anna', attachments: [own] }] });
    // The customer reads the operator's screenshot of their own ticket; another customer does not.
    const asAlice = await t.app.inject({ method: 'GET', url: `/api/v1/support/attachments/${own._id}`, ...json(alice.cookie) });
    expect(asAlice.statusCode).toBe(200);
    expect(asAlice.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/support/attachments/${own._id}`, ...json(bob.cookie) })).statusCode).toBe(404);

    expect((await auditOf(t, 'support-attachment.create')).map((a) => a.target_id)).toEqual([othersUpload._id, own._id]);
    expect((await auditOf(t, 'support-ticket.reply')).filter((a) => a.target_id === ticket._id)).toHaveLength(1);
  });
});
