// Our socket.io client against the real `socket.io` server package the server uses, in Node (ws for the WebSocket).
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openRealtimeSocket, type RealtimeSocket } from './realtime-client';

let io: Server;
let origin: string;
const seen: Array<{ header: unknown; query: unknown; auth: unknown }> = [];
const disconnected: string[] = [];

/** A socket.io server as the app runs it: a middleware that admits the token 'good' only, a room per socket. */
async function startServer(options: { pingInterval?: number; pingTimeout?: number } = {}) {
  const http: HttpServer = createServer();
  io = new Server(http, { path: '/socket.io', serveClient: false, ...options });
  io.use((socket, next) => {
    const auth = (socket.handshake.auth as { token?: string }).token;
    seen.push({ header: socket.handshake.headers.authorization, query: socket.handshake.query.token, auth });
    next(auth === 'good' ? undefined : new Error('invalid_token'));
  });
  io.on('connection', (socket) => {
    socket.on('disconnect', () => { disconnected.push(socket.id); });
    void socket.join('room');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

beforeEach(async () => {
  seen.length = 0;
  disconnected.length = 0;
  await startServer();
});
afterEach(async () => { await io.close(); });

const open = (token: string) => openRealtimeSocket({ path: '/socket.io', token, origin, WebSocket: WebSocket as never });
const next = (socket: RealtimeSocket, event: string) => new Promise<unknown>((resolve) => socket.once(event, resolve));

describe('the realtime client against a socket.io server', () => {
  it('hands the token over as bearer header, query and auth; upgrades to a WebSocket; receives events in order', async () => {
    const socket = open('good');
    await next(socket, 'connect');
    // The handshake's headers and query are the first HTTP request's; the namespace is joined over the WebSocket.
    expect(seen).toEqual([{ header: 'Bearer good', query: 'good', auth: 'good' }]);
    const [server] = [...io.sockets.sockets.values()];
    expect(server!.conn.transport.name).toBe('websocket');
    const events: unknown[] = [];
    socket.on('modem', (payload) => events.push(payload));
    const marker = next(socket, 'marker');
    io.to('room').emit('modem', { IMEI: '1', applyStatus: 'idle' });
    io.to('room').emit('modem', { IMEI: '2', applyStatus: 'rotating' });
    io.to('room').emit('marker', 'end');
    expect(await marker).toBe('end');
    expect(events).toEqual([{ IMEI: '1', applyStatus: 'idle' }, { IMEI: '2', applyStatus: 'rotating' }]);
    socket.close();
  });

  it('reports a refusal by the server\'s middleware as connect_error with its message', async () => {
    const socket = open('bad');
    const error = await next(socket, 'connect_error');
    expect((error as Error).message).toBe('invalid_token');
  });

  it('answers the server\'s pings, so the connection outlives the ping timeout', async () => {
    await io.close();
    await startServer({ pingInterval: 50, pingTimeout: 100 });
    let pongs = 0;
    io.on('connection', (s) => { s.conn.on('packet', (p: { type: string }) => { if (p.type === 'pong') pongs++; }); });
    const socket = open('good');
    await next(socket, 'connect');
    const [server] = [...io.sockets.sockets.values()];
    // Five pings answered in a row: ten times what a client that never answered would survive.
    await expect.poll(() => pongs, { timeout: 5000 }).toBeGreaterThanOrEqual(5);
    expect(server!.connected).toBe(true);
    socket.close();
  });

  it('leaves the namespace on close, and the server hears it', async () => {
    const socket = open('good');
    await next(socket, 'connect');
    const [server] = [...io.sockets.sockets.values()];
    socket.close();
    await expect.poll(() => disconnected, { timeout: 5000 }).toEqual([server!.id]);
  });

  it('reports a server that does not speak socket.io as a connect_error', async () => {
    const plain = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const socket = openRealtimeSocket({ path: '/socket.io', token: 't', origin: `http://127.0.0.1:${(plain.address() as AddressInfo).port}`, WebSocket: WebSocket as never });
    const error = await next(socket, 'connect_error');
    expect((error as Error).message).toBe('xhr poll error');
    plain.close();
  });
});
