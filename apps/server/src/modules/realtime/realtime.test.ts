import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { announced } from '../../../test/announcements.js';
import { buildTestApp, describeOnPostgres, onPostgres, type TestApp } from '../../../test/helpers.js';
import { createCustomer, type Customer } from '../../../test/fixtures.js';
import { NotificationsRepository, NotificationsService } from '../notifications/index.js';
import { buildCountingApp } from '../notifications/test-support.js';
import { issueRealtimeToken, verifyRealtimeToken } from './realtime-token.js';
import { setActive } from '../../cli/admin-commands.js';
import { cliLogger } from '../../cli/cli-logger.js';
import { composeServices } from '../../composition.js';
import { hashToken } from '../../lib/tokens.js';

let a: TestApp;
let b: TestApp | undefined;
let alice: Customer;
let bob: Customer;
const sockets: Socket[] = [];

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

async function tokenFor(t: TestApp, c: Customer): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/token', headers: { cookie: c.cookie } });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
}

/** Connects like the web client does (spec §4): bearer header, query and auth all carry the token. */
function open(url: string, token: string, transports: Array<'websocket' | 'polling'> = ['websocket']): Promise<Socket> {
  const socket = connect(url, {
    path: '/socket.io', transports, extraHeaders: { Authorization: `Bearer ${token}` }, query: { token }, auth: { token },
    reconnection: false, forceNew: true,
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}
/** The session a customer's cookie stands for, as a realtime token names it. */
const holderOf = (c: Customer) => ({ userId: c.id, sessionId: hashToken(c.cookie.slice('cp_session='.length)) });
/** A second session of the same customer (another browser). */
async function anotherSession(t: TestApp, c: Customer): Promise<Customer> {
  const again = await createCustomerSession(t, c.id);
  return { id: c.id, cookie: again };
}
async function createCustomerSession(t: TestApp, userId: string): Promise<string> {
  return `cp_session=${await t.ctx.sessions.create(userId, { ip: '127.0.0.1', headers: {} } as never)}`;
}
const next = <T>(socket: Socket, event: string) => new Promise<T>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`no ${event} event`)), 5000);
  socket.once(event, (data: T) => { clearTimeout(timer); resolve(data); });
});

beforeAll(async () => {
  a = await buildTestApp();
  alice = await createCustomer(a);
  bob = await createCustomer(a);
  if (onPostgres) b = await buildCountingApp({}, a);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await b?.close();
  await a.close();
});

describe('realtime token', () => {
  it('is issued only with a session, signed, for 5 minutes', async () => {
    expect((await a.app.inject({ method: 'GET', url: '/api/v1/token' })).statusCode).toBe(401);
    const token = await tokenFor(a, alice);
    expect(verifyRealtimeToken(token, a.config.secret)).toEqual(holderOf(alice));
    expect(verifyRealtimeToken(token, 'another-secret-another-secret-000')).toBeNull();
    expect(verifyRealtimeToken(token.replace(alice.id, bob.id), a.config.secret)).toBeNull();
    const old = issueRealtimeToken(holderOf(alice), a.config.secret, Date.now() - 301_000);
    expect(verifyRealtimeToken(old, a.config.secret)).toBeNull();
    expect(verifyRealtimeToken(issueRealtimeToken(holderOf(alice), a.config.secret, Date.now() - 299_000), a.config.secret)).toEqual(holderOf(alice));
  });
});

describe('socket.io', () => {
  let url: string;
  beforeAll(async () => { url = await listen(a); });

  it('refuses a missing, forged or expired token with invalid_token', async () => {
    await expect(open(url, 'nonsense')).rejects.toThrow('invalid_token');
    await expect(open(url, issueRealtimeToken(holderOf(alice), 'forged-secret-forged-secret-00000'))).rejects.toThrow('invalid_token');
    await expect(open(url, issueRealtimeToken(holderOf(alice), a.config.secret, Date.now() - 600_000))).rejects.toThrow('invalid_token');
    // Genuine and unexpired, but for a session that does not exist.
    await expect(open(url, issueRealtimeToken({ userId: alice.id, sessionId: hashToken('no-such-session') }, a.config.secret))).rejects.toThrow('invalid_token');
  });

  it('signing out closes that session\'s sockets and its token opens no new one', async () => {
    const dave = await createCustomer(a);
    const token = await tokenFor(a, dave);
    const socket = await open(url, token);
    const gone = next(socket, 'disconnect');
    const res = await a.app.inject({ method: 'POST', url: '/api/v1/sign-out', headers: { cookie: dave.cookie, origin: 'http://localhost:3000' } });
    expect(res.statusCode).toBe(200);
    await gone;
    await expect(open(url, token)).rejects.toThrow('invalid_token');
  });

  it('"sign out the other sessions" closes their sockets and keeps the current one\'s', async () => {
    const erin = await createCustomer(a);
    const laptop = await anotherSession(a, erin);
    const kept = await open(url, await tokenFor(a, erin));
    const otherToken = await tokenFor(a, laptop);
    const other = await open(url, otherToken);
    const gone = next(other, 'disconnect');
    const res = await a.app.inject({ method: 'POST', url: '/api/v1/me/sessions/revoke-others', headers: { cookie: erin.cookie, origin: 'http://localhost:3000' } });
    expect(res.statusCode).toBe(200);
    await gone;
    await expect(open(url, otherToken)).rejects.toThrow('invalid_token');
    // The positive marker: the kept socket still gets an event published after the revocation.
    const modem = next(kept, 'modem');
    await a.ctx.bus.publish('modem:status', { userIds: [erin.id], IMEI: '350000000000055', applyStatus: 'idle', ext_ip: '10.5.5.5' });
    expect(await modem).toMatchObject({ IMEI: '350000000000055' });
    expect(kept.connected).toBe(true);
  });

  it('delivers a notification and a modem status to the customer only, over websocket and long-polling', async () => {
    const aliceSocket = await open(url, await tokenFor(a, alice), ['polling']);
    const bobSocket = await open(url, await tokenFor(a, bob));
    let bobGot = 0;
    bobSocket.onAny(() => { bobGot++; });

    const note = next<{ text: string; unread: boolean; type: string }>(aliceSocket, 'notification');
    await new NotificationsService(new NotificationsRepository(a.ctx.db)).notify(alice.id, 'other', 'port_released', { name: 'P1' });
    expect(await note).toMatchObject({ text: 'P1 was not renewed and its modem went back to stock.', unread: true, type: 'other' });

    const modem = next(aliceSocket, 'modem');
    await a.ctx.bus.publish('modem:status', { userIds: [alice.id], IMEI: '350000000000001', applyStatus: 'rotating', ext_ip: '10.0.0.1' });
    expect(await modem).toEqual({ IMEI: '350000000000001', applyStatus: 'rotating', ext_ip: '10.0.0.1' });
    // Unchanged ext_ip is left out: the client keeps the one it has.
    const again = next(aliceSocket, 'modem');
    await a.ctx.bus.publish('modem:status', { userIds: [alice.id], IMEI: '350000000000001', applyStatus: 'applying', ext_ip: '10.0.0.1' });
    expect(await again).toEqual({ IMEI: '350000000000001', applyStatus: 'applying' });

    const balance = next(aliceSocket, 'balance');
    await a.ctx.bus.publish('balance:changed', { userId: alice.id });
    expect(await balance).toEqual({ btc: { balance: '0', address: null }, usdt: { balance: '0', address: null } });
    // The positive marker: an event for bob, sent after all of alice's were. A socket delivers in order, so had any
    // of alice's events gone to bob, it would have reached him before this one.
    const marker = next(bobSocket, 'modem');
    await a.ctx.bus.publish('modem:status', { userIds: [bob.id], IMEI: '350000000000077', applyStatus: 'idle', ext_ip: '10.7.7.7' });
    expect(await marker).toEqual({ IMEI: '350000000000077', applyStatus: 'idle', ext_ip: '10.7.7.7' });
    expect(bobGot).toBe(1);
  });

  it('closes the sockets of a customer whose sessions were all ended (a password reset), and refuses their tokens', async () => {
    const token = await tokenFor(a, bob);
    const socket = await open(url, token);
    const gone = next(socket, 'disconnect');
    await a.ctx.sessions.revokeAllForUser(bob.id);
    await gone;
    await expect(open(url, token)).rejects.toThrow('invalid_token');
  });
});

describeOnPostgres('two server instances on one database', () => {
  let urlB: string;
  beforeAll(async () => { urlB = await listen(b!); });

  it('an event published on instance A reaches a customer connected to instance B', async () => {
    const socket = await open(urlB, await tokenFor(b!, alice));
    const modem = next(socket, 'modem');
    await a.ctx.bus.publish('modem:status', { userIds: [alice.id], IMEI: '350000000000099', applyStatus: 'idle', ext_ip: '10.9.9.9' });
    expect(await modem).toEqual({ IMEI: '350000000000099', applyStatus: 'idle', ext_ip: '10.9.9.9' });

    const note = next<{ text: string }>(socket, 'notification');
    await new NotificationsService(new NotificationsRepository(a.ctx.db)).notify(alice.id, 'other', 'port_expired', { name: 'P2', graceDays: 3 });
    expect((await note).text).toContain('P2 has expired');

    const payment = next(socket, 'payment');
    await a.ctx.bus.publish('payment:completed', { userId: alice.id, payment: { _id: 'x', amount: '1' } });
    expect(await payment).toEqual({ _id: 'x', amount: '1' });
  });

  it('the notifications version bumped on A moves on B: B answers 200 with the new data, then 304', async () => {
    const get = (t: TestApp, etag?: string) => t.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: { cookie: alice.cookie, ...(etag ? { 'if-none-match': etag } : {}) } });
    const first = await get(b!);
    const etag = first.headers.etag as string;
    expect((await get(b!, etag)).statusCode).toBe(304);
    await new NotificationsService(new NotificationsRepository(a.ctx.db)).notify(alice.id, 'other', 'port_released', { name: 'P3' });
    // B hears the bump a moment after A's commit: once B's sentinel NOTIFY is back, it has.
    await announced(b!);
    const res = await get(b!, etag);
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0].text).toBe('P3 was not renewed and its modem went back to stock.');
    expect((await get(b!, res.headers.etag as string)).statusCode).toBe(304);
    expect(res.headers.etag).toBe((await get(a)).headers.etag);
  });

  it('signing out on instance A closes the socket on B and B refuses the token at once', async () => {
    const frank = await createCustomer(a);
    const token = await tokenFor(a, frank);
    const socket = await open(urlB, token);
    const gone = next(socket, 'disconnect');
    expect((await a.app.inject({ method: 'POST', url: '/api/v1/sign-out', headers: { cookie: frank.cookie, origin: 'http://localhost:3000' } })).statusCode).toBe(200);
    await gone;
    await expect(open(urlB, token)).rejects.toThrow('invalid_token');
  });

  it('deactivating from the CLI (another process) ends a session cached by a running instance at once', async () => {
    const carol = await createCustomer(a);
    const poll = () => b!.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: { cookie: carol.cookie } });
    expect((await poll()).statusCode).toBe(200);
    const { email } = await a.ctx.db.selectFrom('users').select('email').where('id', '=', carol.id).executeTakeFirstOrThrow();
    // As the CLI does it: the console's operation, in a composition of its own (a process without a Bus listening).
    await setActive(composeServices({ config: a.ctx.config, database: a.ctx.database, log: cliLogger({ err: () => {} }) }).services.admin.customers, email, false);
    // The revocation travels on the bus channel (NOTIFY on the CLI's commit): B has heard it once its sentinel is back.
    await announced(b!);
    expect((await poll()).statusCode).toBe(401);
  });
});

describe('socket caps (REALTIME_SOCKETS_PER_USER, REALTIME_SOCKETS_PER_ADDRESS)', () => {
  let capped: TestApp;
  let url: string;
  beforeAll(async () => {
    capped = await buildTestApp({ REALTIME_SOCKETS_PER_USER: '3', REALTIME_SOCKETS_PER_ADDRESS: '5' });
    url = await listen(capped);
  });
  afterAll(async () => { await capped.close(); });
  const settle = (p: Promise<Socket>) => p.then(() => 'connected', (err: Error) => err.message);
  const held = (userId: string) => capped.app.io.in(`user:${userId}`).fetchSockets().then((s) => s.length);

  it('lets one account hold as many sockets as allowed, even when they all arrive at once, and refuses the rest with a reason', async () => {
    const carol = await createCustomer(capped);
    const token = await tokenFor(capped, carol);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => settle(open(url, token))));
    expect(outcomes.filter((o) => o === 'connected')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'too_many_connections')).toHaveLength(5);
    expect(await held(carol.id)).toBe(3);

    // One tab closes: its place is free again once the server has seen it go.
    const connected = sockets.filter((s) => s.connected && s.io.opts.query && (s.io.opts.query as { token?: string }).token === token);
    connected[0]!.close();
    await vi.waitFor(async () => { expect(await held(carol.id)).toBe(2); });
    await open(url, token);
    await expect(open(url, token)).rejects.toThrow('too_many_connections');
  });

  it('caps the sockets of one client address across accounts', async () => {
    // carol's 3 sockets from the test above are still open on 127.0.0.1.
    const dan = await createCustomer(capped);
    const token = await tokenFor(capped, dan);
    await open(url, token);
    await open(url, token);
    await expect(open(url, token)).rejects.toThrow('too_many_connections');
    expect(await held(dan.id)).toBe(2);
  });
});
