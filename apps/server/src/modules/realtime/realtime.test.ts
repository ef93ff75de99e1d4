import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { announced } from '../../../test/announcements.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, type Customer } from '../purchases/test-fixtures.js';
import { NotificationsService } from '../notifications/notifications.service.js';
import { buildCountingApp } from '../notifications/test-support.js';
import { issueRealtimeToken, verifyRealtimeToken } from './realtime-token.js';
import { setActive } from '../../cli/admin-commands.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
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
    expect(verifyRealtimeToken(token, a.config.secret)).toBe(alice.id);
    expect(verifyRealtimeToken(token, 'another-secret-another-secret-000')).toBeNull();
    expect(verifyRealtimeToken(token.replace(alice.id, bob.id), a.config.secret)).toBeNull();
    const old = issueRealtimeToken(alice.id, a.config.secret, Date.now() - 301_000);
    expect(verifyRealtimeToken(old, a.config.secret)).toBeNull();
    expect(verifyRealtimeToken(issueRealtimeToken(alice.id, a.config.secret, Date.now() - 299_000), a.config.secret)).toBe(alice.id);
  });
});

describe('socket.io', () => {
  let url: string;
  beforeAll(async () => { url = await listen(a); });

  it('refuses a missing, forged or expired token with invalid_token', async () => {
    await expect(open(url, 'nonsense')).rejects.toThrow('invalid_token');
    await expect(open(url, issueRealtimeToken(alice.id, 'forged-secret-forged-secret-00000'))).rejects.toThrow('invalid_token');
    await expect(open(url, issueRealtimeToken(alice.id, a.config.secret, Date.now() - 600_000))).rejects.toThrow('invalid_token');
  });

  it('delivers a notification and a modem status to the customer only, over websocket and long-polling', async () => {
    const aliceSocket = await open(url, await tokenFor(a, alice), ['polling']);
    const bobSocket = await open(url, await tokenFor(a, bob));
    let bobGot = 0;
    bobSocket.onAny(() => { bobGot++; });

    const note = next<{ text: string; unread: boolean; type: string }>(aliceSocket, 'notification');
    await new NotificationsService(a.ctx.db).notify(alice.id, 'other', 'port_released', { name: 'P1' });
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

  it('closes the sockets of a customer whose sessions were all ended', async () => {
    const socket = await open(url, await tokenFor(a, bob));
    const gone = next(socket, 'disconnect');
    await a.ctx.sessions.revokeAllForUser(bob.id);
    await gone;
  });
});

describe.runIf(onPostgres)('two server instances on one PostgreSQL database', () => {
  it('an event published on instance A reaches a customer connected to instance B', async () => {
    const urlB = await listen(b!);
    const socket = await open(urlB, await tokenFor(b!, alice));
    const modem = next(socket, 'modem');
    await a.ctx.bus.publish('modem:status', { userIds: [alice.id], IMEI: '350000000000099', applyStatus: 'idle', ext_ip: '10.9.9.9' });
    expect(await modem).toEqual({ IMEI: '350000000000099', applyStatus: 'idle', ext_ip: '10.9.9.9' });

    const note = next<{ text: string }>(socket, 'notification');
    await new NotificationsService(a.ctx.db).notify(alice.id, 'other', 'port_expired', { name: 'P2', graceDays: 3 });
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
    await new NotificationsService(a.ctx.db).notify(alice.id, 'other', 'port_released', { name: 'P3' });
    // B hears the bump a moment after A's commit: once B's sentinel NOTIFY is back, it has.
    await announced(b!);
    const res = await get(b!, etag);
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0].text).toBe('P3 was not renewed and its modem went back to stock.');
    expect((await get(b!, res.headers.etag as string)).statusCode).toBe(304);
    expect(res.headers.etag).toBe((await get(a)).headers.etag);
  });

  it('deactivating from the CLI (another process) ends a session cached by a running instance at once', async () => {
    const carol = await createCustomer(a);
    const poll = () => b!.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: { cookie: carol.cookie } });
    expect((await poll()).statusCode).toBe(200);
    const { email } = await a.ctx.db.selectFrom('users').select('email').where('id', '=', carol.id).executeTakeFirstOrThrow();
    await setActive(a.ctx.db, email, false);
    // The revocation travels on the bus channel (NOTIFY on the CLI's commit): B has heard it once its sentinel is back.
    await announced(b!);
    expect((await poll()).statusCode).toBe(401);
  });
});
