import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PollChange } from '../../lib/poll-versions.js';
import { buildCountingApp, type CountingApp } from '../notifications/test-support.js';
import { createCustomer, json, type Customer } from '../../../test/fixtures.js';

// GET /api/v1/pending-crypto-payment-active through the 'pendingCrypto' poll version (docs/decisions/012-realtime.md):
// an unchanged poll answers 304 from memory, and every write that changes the answer moves the ETag.
let t: CountingApp;
const changes: PollChange[] = [];

beforeAll(async () => {
  t = await buildCountingApp();
  t.ctx.pollVersions.onChange((change) => { if (change.kind === 'pendingCrypto') changes.push(change); });
});
afterAll(async () => { await t.close(); });

const URL = '/api/v1/pending-crypto-payment-active';
const poll = (c: Customer, etag?: string) => t.app.inject({ method: 'GET', url: URL, ...json(c.cookie, undefined, etag ? { 'if-none-match': etag } : {}) });
const createUsdt = async (c: Customer, amount = '5') => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/crypto/pending', ...json(c.cookie, { amount, provider: 'crypto', coin: 'usdt' }) });
  expect(res.statusCode).toBe(200);
  return res.json().data as { _id: string; amount: string };
};

/**
 * The NOTIFY of a bump arrives after the commit, asynchronously: once t.settled() is back (a sentinel NOTIFY sent
 * after it has come back), every bump committed so far has been heard. The version must have moved past `previous`.
 */
async function versionAfter(c: Customer, previous: number): Promise<number> {
  await t.settled();
  const v = await t.ctx.pollVersions.current('pendingCrypto', c.id);
  expect(v, 'the pendingCrypto version did not move').toBeGreaterThan(previous);
  return v;
}

/** Polls with the last ETag after a change: a 200 with a new ETag; then that ETag answers 304 with no query at all. */
async function changedPoll(c: Customer, lastEtag: string) {
  const res = await poll(c, lastEtag);
  expect(res.statusCode).toBe(200);
  const etag = res.headers.etag as string;
  expect(etag).toMatch(/^"c\d+"$/);
  expect(etag).not.toBe(lastEtag);
  await expectUnchangedWithoutDatabase(c, etag);
  return { etag, data: res.json().data };
}

async function expectUnchangedWithoutDatabase(c: Customer, etag: string, times = 10) {
  // Background work (an e-mail a bump started, the invoice numbering a completed payment kicked) is not counted.
  await t.settled();
  const before = t.queries.count;
  for (let i = 0; i < times; i++) {
    const res = await poll(c, etag);
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBe(etag);
  }
  expect(t.queries.count - before).toBe(0);
}

describe('pending crypto payment poll', () => {
  it('answers an unchanged poll 304 without touching the database', async () => {
    const c = await createCustomer(t);
    const first = await poll(c);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ data: null });
    expect(first.headers.etag).toBe('"c0"');
    expect(first.headers['cache-control']).toBe('private, no-cache');
    await expectUnchangedWithoutDatabase(c, '"c0"', 20);
    // Another ETag (or none) gets the body again.
    expect((await poll(c, '"c7"')).statusCode).toBe(200);
  });

  it('create, replace, cancel: the ETag moves with each and the body follows', async () => {
    const c = await createCustomer(t);
    let etag = (await poll(c)).headers.etag as string;

    const a = await createUsdt(c, '5');
    let v = await versionAfter(c, 0);
    let answer = await changedPoll(c, etag);
    expect(answer.etag).toBe(`"c${v}"`);
    expect(answer.data).toMatchObject({ _id: a._id, status: 'pending', provider: 'crypto', amount: '5000000' });
    etag = answer.etag;

    // A new payment replaces the previous one (which is cancelled in the same transaction): one change.
    const b = await createUsdt(c, '7');
    v = await versionAfter(c, v);
    answer = await changedPoll(c, etag);
    expect(answer.data).toMatchObject({ _id: b._id, amount: '7000000' });
    etag = answer.etag;

    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/pending-payments/${b._id}`, ...json(c.cookie) });
    expect(del.statusCode).toBe(200);
    v = await versionAfter(c, v);
    answer = await changedPoll(c, etag);
    expect(answer.data).toBeNull();
    expect(answer.etag).toBe(`"c${v}"`);

    // Each change carried the realtime event the sockets receive.
    const mine = changes.filter((ch) => ch.userId === c.id).map((ch) => ch.event as { name: string; data: { action: string; payment: { _id: string; status: string } } });
    expect(mine.map((e) => [e.name, e.data.action, e.data.payment._id, e.data.payment.status])).toEqual([
      ['pending_crypto_payment', 'add', a._id, 'pending'],
      ['pending_crypto_payment', 'add', b._id, 'pending'],
      ['pending_crypto_payment', 'cancel', b._id, 'cancelled'],
    ]);
  });

  it('a partial deposit updates what was received; the simulated rest completes it and the poll empties', async () => {
    const c = await createCustomer(t);
    const p = await createUsdt(c, '10');
    const v = await versionAfter(c, 0);
    let etag = `"c${v}"`;
    await expectUnchangedWithoutDatabase(c, (await poll(c)).headers.etag as string);

    // The deposit watcher credits part of the amount through the fulfilment.
    const partial = await t.app.payments.fulfilment.settleNow({
      userId: c.id, orderId: p._id, coin: 'usdt', amount: 4_000_000n, reference: `usdt:test-partial:${p._id}`, kind: 'crypto_deposit',
    });
    expect(partial).toMatchObject({ credited: true, completed: null });
    const v2 = await versionAfter(c, v);
    let answer = await changedPoll(c, etag);
    expect(answer.etag).toBe(`"c${v2}"`);
    expect(answer.data).toMatchObject({ _id: p._id, status: 'pending', received: '4000000' });
    etag = answer.etag;

    const sim = await t.app.inject({ method: 'POST', url: `/api/v1/pending-payments/${p._id}/simulate`, ...json(c.cookie) });
    expect(sim.json().data.status).toBe('completed');
    await versionAfter(c, v2);
    answer = await changedPoll(c, etag);
    expect(answer.data).toBeNull();
    const last = changes.filter((ch) => ch.userId === c.id).at(-1)!.event as { data: { action: string; payment: { status: string } } };
    expect(last.data).toMatchObject({ action: 'cancel', payment: { status: 'completed' } });
  });

  it('a replayed deposit and cancelling a finished payment leave the ETag alone', async () => {
    const c = await createCustomer(t);
    const p = await createUsdt(c, '3');
    const v = await versionAfter(c, 0);
    const deposit = { userId: c.id, orderId: p._id, coin: 'usdt' as const, amount: 1_000_000n, reference: `usdt:test-replay:${p._id}`, kind: 'crypto_deposit' };
    await t.app.payments.fulfilment.settleNow(deposit);
    const v2 = await versionAfter(c, v);
    expect(await t.app.payments.fulfilment.settleNow(deposit)).toMatchObject({ credited: false });
    await t.app.inject({ method: 'DELETE', url: `/api/v1/pending-payments/${p._id}`, ...json(c.cookie) });
    const v3 = await versionAfter(c, v2);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/pending-payments/${p._id}`, ...json(c.cookie) })).statusCode).toBe(409);
    // A bump by the refused cancel would have been heard before the sentinel: none was.
    await t.settled();
    expect(await t.ctx.pollVersions.current('pendingCrypto', c.id)).toBe(v3);
    await expectUnchangedWithoutDatabase(c, `"c${v3}"`);
  });

  it('the expiry job moves the ETag and the poll empties', async () => {
    const c = await createCustomer(t);
    const p = await createUsdt(c, '5');
    const v = await versionAfter(c, 0);
    const etag = `"c${v}"`;
    expect((await poll(c, etag)).statusCode).toBe(304);
    await t.app.jobs.runDueJobs(new Date(Date.now() + 61 * 60_000));
    await versionAfter(c, v);
    const answer = await changedPoll(c, etag);
    expect(answer.data).toBeNull();
    const row = await t.ctx.db.selectFrom('payment_orders').select('status').where('id', '=', p._id).executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
  });

  it('customers do not share versions, and the poll needs a session', async () => {
    const a = await createCustomer(t);
    const b = await createCustomer(t);
    await createUsdt(a);
    await versionAfter(a, 0);
    expect(await t.ctx.pollVersions.current('pendingCrypto', b.id)).toBe(0);
    expect((await poll(b, '"c0"')).statusCode).toBe(304);
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });
});
