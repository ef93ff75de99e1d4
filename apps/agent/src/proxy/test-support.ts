import { createSocket } from 'node:dgram';
import type { Socket as DgramSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket, SocketConnectOpts } from 'node:net';
import { SocksClient } from 'socks';
import { expect, vi } from 'vitest';
import { ModemProxy } from './modem-proxy.js';
import type { ModemProxyOptions } from './modem-proxy.js';
import { createTargetPolicy } from './target-policy.js';
import { TrafficMeter } from './traffic-meter.js';
import type { Logger, PortAccess } from './types.js';

/** A port for a listener the test opens later: outside the kernel's ephemeral range (node-common/free-port.ts says why). */
export { freePort } from '@cellport/node-common/free-port';

// Shared by the proxy tests: real target servers on loopback that report the address they see, a ModemProxy on free
// ports, and raw clients that report exactly what they moved on their own socket.

export const EGRESS = '127.0.9.9';

export function plain(address: string | undefined): string {
  return address?.startsWith('::ffff:') ? address.slice(7) : (address ?? '');
}

export async function ipv6Available(): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(0, '::1');
    await once(server, 'listening');
    await new Promise((resolve) => server.close(resolve));
    return true;
  } catch {
    return false;
  }
}

export interface Targets {
  /** TCP: answers "<remote address>\n", then echoes. */
  tcpPort: number;
  /** HTTP: answers JSON {remote, method, url, headers, body}. */
  httpPort: number;
  /** Remote addresses of TCP connections, in order. */
  seen: string[];
  close(): Promise<void>;
}

export async function startTargets(): Promise<Targets> {
  const host = (await ipv6Available()) ? '::' : '127.0.0.1'; // '::' takes IPv4 and IPv6 on Linux
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const tcp: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    seen.push(plain(socket.remoteAddress));
    socket.write(`${plain(socket.remoteAddress)}\n`);
    socket.pipe(socket);
  });
  const http: HttpServer = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.stringify({
        remote: plain(req.socket.remoteAddress), method: req.method, url: req.url, headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(200, {
        'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'keep-alive, x-hop',
        'x-hop': 'dropped', 'keep-alive': 'timeout=5',
      });
      res.end(body);
    });
  });
  http.keepAliveTimeout = 1000;
  tcp.listen(0, host);
  http.listen(0, host);
  await Promise.all([once(tcp, 'listening'), once(http, 'listening')]);
  return {
    tcpPort: (tcp.address() as AddressInfo).port,
    httpPort: (http.address() as AddressInfo).port,
    seen,
    async close() {
      for (const s of sockets) s.destroy();
      http.closeAllConnections();
      await Promise.all([new Promise((r) => tcp.close(r)), new Promise((r) => http.close(r))]);
    },
  };
}

export interface RecordingOrigin {
  host: string;
  port: number;
  /** Exactly the bytes each connection delivered, in the order the connections were opened. */
  connections: string[];
  /** Each request the origin's (Node's) parser read: its connection's index, method, path, Cookie and body. */
  requests: { connection: number; method: string; path: string; cookie: string | undefined; body: string }[];
  /** Indexes of the connections still open. */
  open: Set<number>;
  close(): Promise<void>;
}

/**
 * A keep-alive HTTP origin on `host` that records what it receives per connection, byte for byte, beside the requests
 * its parser read from them; it answers each with JSON {path, method, cookie, body}. To see how a proxy framed (or
 * failed to frame) what it forwarded: a body the proxy sent unframed shows up here as a request of its own.
 */
export async function startRecordingOrigin(host: string): Promise<RecordingOrigin> {
  const connections: string[] = [];
  const requests: RecordingOrigin['requests'] = [];
  const index = new WeakMap<Socket, number>();
  const open = new Set<number>();
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method!, path: req.url!, cookie: req.headers.cookie, body: Buffer.concat(chunks).toString('latin1') };
      requests.push({ connection: index.get(req.socket)!, ...seen });
      const body = JSON.stringify(seen);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    const i = connections.push('') - 1;
    index.set(socket, i);
    open.add(i);
    socket.on('close', () => open.delete(i));
    socket.on('data', (chunk: Buffer) => { connections[i] += chunk.toString('latin1'); });
  });
  server.listen(0, host);
  await once(server, 'listening');
  return {
    host,
    port: (server.address() as AddressInfo).port,
    connections,
    requests,
    open,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The JSON body of a whole HTTP response read off a raw socket. */
export function responseJson<T>(data: Buffer): T {
  const text = data.toString('latin1');
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as T;
}

export const silentLog: Logger & { lines: string[] } = {
  lines: [],
  info(_f, m) { this.lines.push(m); },
  warn(_f, m) { this.lines.push(m); },
  error(_f, m) { this.lines.push(m); },
};

export function access(id: string, extra: Partial<PortAccess> = {}): PortAccess {
  return {
    id, login: `login-${id}`, password: `secret-${id}`, whitelist: [], state: 'active',
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(), ...extra,
  };
}

export function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

export type TestModem = ModemProxy & { http: number; socks: number; meter: TrafficMeter };

export async function startModem(options: Partial<ModemProxyOptions> & { ports?: PortAccess[] } = {}): Promise<TestModem> {
  const meter = options.meter ?? new TrafficMeter();
  const proxy = new ModemProxy({
    imei: '350000000000001',
    listenHost: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    egress: EGRESS,
    policy: createTargetPolicy({ allowLoopback: true }),
    meter,
    log: silentLog,
    ...options,
  });
  await proxy.start();
  proxy.setPorts(options.ports ?? [access('p1')]);
  const ports = proxy.listeningPorts!;
  return Object.assign(proxy, { http: ports.http, socks: ports.socks, meter });
}

/** Resolves when the socket has closed (immediately if it already has). */
export function closed(socket: Socket): Promise<void> {
  if (socket.closed) return Promise.resolve();
  const done = once(socket, 'close').then(() => undefined);
  socket.resume(); // a paused socket would never see the peer's FIN
  return done;
}

/** Reads from a socket until `predicate(all bytes so far)`; rejects if it closes first. */
export function readUntil(socket: Socket, predicate: (data: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (predicate(data)) {
        socket.removeListener('data', onData);
        socket.removeListener('close', onClose);
        socket.pause();
        resolve(data);
      }
    };
    const onClose = () => reject(new Error(`closed after ${data.length} bytes: ${JSON.stringify(data.toString('latin1'))}`));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.resume();
  });
}

/** Reads everything until the peer closes. */
export function readAll(socket: Socket): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.once('close', () => resolve(Buffer.concat(chunks)));
    socket.resume();
  });
}

/** Every client socket the helpers opened, so a test can end with none open (see destroyTestClients). */
const clients = new Set<Socket>();

function remember(socket: Socket): void {
  clients.add(socket);
  socket.once('close', () => clients.delete(socket));
}

/** Every UDP client socket the helpers opened. */
const udpClients = new Set<DgramSocket>();

/** Destroys client sockets a test left open (a paused client never notices the proxy's FIN), TCP and UDP. */
export async function destroyTestClients(): Promise<void> {
  const open = [...clients];
  const udp = [...udpClients];
  await Promise.all([
    ...open.map((socket) => {
      const done = closed(socket);
      socket.destroy();
      return done;
    }),
    ...udp.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))),
  ]);
}

export async function rawConnect(port: number, localAddress?: string, host = '127.0.0.1'): Promise<Socket> {
  const socket = connect({ port, host, localAddress });
  remember(socket);
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
}

const headEnd = (d: Buffer) => d.includes('\r\n\r\n');

/** Whether data holds a whole HTTP response with a Content-Length body. */
export function wholeResponse(data: Buffer): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /content-length: *(\d+)/i.exec(data.subarray(0, end).toString('latin1'));
  return length !== null && data.length >= end + 4 + Number(length[1]);
}

/** A CONNECT through the HTTP proxy on a raw socket: its status, and the socket (tunnel when 200). */
export async function httpConnect(proxyPort: number, target: string, auth?: string, localAddress?: string):
  Promise<{ socket: Socket; status: number; head: string }> {
  const socket = await rawConnect(proxyPort, localAddress);
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`);
  const data = await readUntil(socket, headEnd);
  const end = data.indexOf('\r\n\r\n') + 4;
  if (data.length > end) socket.unshift(data.subarray(end));
  const head = data.subarray(0, end).toString('latin1');
  return { socket, status: Number(head.split(' ')[1]), head };
}

/** A SOCKS5 CONNECT through the proxy with the `socks` client. */
export async function socksConnect(proxyPort: number, host: string, port: number,
  auth?: { userId: string; password: string }, localAddress?: string): Promise<Socket> {
  const { socket } = await SocksClient.createConnection({
    proxy: { host: '127.0.0.1', port: proxyPort, type: 5, ...auth },
    command: 'connect',
    destination: { host, port },
    timeout: 20_000,
    socket_options: localAddress ? ({ localAddress } as SocketConnectOpts) : undefined,
  });
  remember(socket);
  socket.on('error', () => {});
  // The socks client re-emits bytes that came with its reply on the next turn and resumes the socket: keep them
  // (and anything after) in the socket for the caller, who may read later.
  const early: Buffer[] = [];
  const keep = (chunk: Buffer) => early.push(chunk);
  socket.on('data', keep);
  await new Promise((resolve) => setImmediate(resolve));
  socket.removeListener('data', keep);
  socket.pause();
  for (const chunk of early.reverse()) socket.unshift(chunk);
  return socket;
}

/** Sends a line through a tunnel to the TCP echo target; the first line back is the address the target saw. */
export async function seenThrough(socket: Socket): Promise<string> {
  const data = await readUntil(socket, (d) => d.includes('\n'));
  return data.subarray(0, data.indexOf('\n')).toString();
}

// SOCKS5 UDP: an echo target, the UDP ASSOCIATE handshake, and a client's UDP socket.

/** A SOCKS UDP request header (RFC 1928 §7) and payload, to an IPv4 literal or a domain name; any FRAG. */
export function socksUdpDatagram(host: string, port: number, payload: Buffer | string, frag = 0): Buffer {
  const addr = /^\d+\.\d+\.\d+\.\d+$/.test(host)
    ? Buffer.from([1, ...host.split('.').map(Number)])
    : Buffer.concat([Buffer.from([3, Buffer.byteLength(host)]), Buffer.from(host)]);
  return Buffer.concat([Buffer.from([0, 0, frag]), addr, Buffer.from([port >> 8, port & 0xff]), Buffer.from(payload)]);
}

/** A datagram from the relay: the sender named in its header (IPv4 only here) and the data. */
export function parseSocksUdpReply(datagram: Buffer): { host: string; port: number; payload: Buffer } {
  expect([...datagram.subarray(0, 4)]).toEqual([0, 0, 0, 1]);
  return { host: [...datagram.subarray(4, 8)].join('.'), port: datagram.readUInt16BE(8), payload: datagram.subarray(10) };
}

export interface UdpEcho {
  address: string;
  port: number;
  /** Every datagram it received: the source address it saw and the data. */
  seen: { from: string; payload: Buffer }[];
  close(): Promise<void>;
}

/** A UDP echo target: answers each datagram with "<source address>\n" and the datagram's data. */
export async function startUdpEcho(address = '127.0.0.1'): Promise<UdpEcho> {
  const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
  const seen: UdpEcho['seen'] = [];
  socket.on('message', (msg, rinfo) => {
    seen.push({ from: rinfo.address, payload: msg });
    socket.send(Buffer.concat([Buffer.from(`${rinfo.address}\n`), msg]), rinfo.port, rinfo.address);
  });
  socket.bind(0, address);
  await once(socket, 'listening');
  return { address, port: socket.address().port, seen, close: () => new Promise((resolve) => socket.close(resolve)) };
}

/** A UDP ASSOCIATE on a raw control connection: the reply code and, on success, the relay's address. */
export async function socksUdpAssociate(proxyPort: number,
  opts: { auth?: [string, string]; localAddress?: string; host?: string } = {}):
  Promise<{ control: Socket; reply: number; relay: { address: string; port: number } }> {
  const control = await rawConnect(proxyPort, opts.localAddress, opts.host);
  const auth = opts.auth;
  control.write(Buffer.from([5, 1, auth ? 2 : 0]));
  let data = await readUntil(control, (d) => d.length >= 2);
  expect(data[1]).toBe(auth ? 2 : 0);
  if (auth) {
    const [login, password] = auth;
    control.write(Buffer.concat([Buffer.from([1, login.length]), Buffer.from(login), Buffer.from([password.length]), Buffer.from(password)]));
    data = await readUntil(control, (d) => d.length >= 2);
    expect(data[1]).toBe(0);
  }
  // DST.ADDR 0.0.0.0:0: the client does not know yet where it will send from (what most clients send).
  control.write(Buffer.from([5, 3, 0, 1, 0, 0, 0, 0, 0, 0]));
  data = await readUntil(control, (d) => d.length >= (d[3] === 4 ? 22 : 10));
  if (data[3] === 4) {
    const groups = Array.from({ length: 8 }, (_, i) => data.readUInt16BE(4 + 2 * i).toString(16));
    return { control, reply: data[1]!, relay: { address: groups.join(':'), port: data.readUInt16BE(20) } };
  }
  expect(data[3]).toBe(1);
  return {
    control,
    reply: data[1]!,
    relay: { address: [...data.subarray(4, 8)].join('.'), port: data.readUInt16BE(8) },
  };
}

export interface UdpClient {
  socket: DgramSocket;
  send(to: { address: string; port: number }, datagram: Buffer): void;
  /** The next datagram that arrives (in order; ones that came before are queued). */
  next(): Promise<Buffer>;
}

/** A client's UDP socket on `localAddress`, closed by destroyTestClients. */
export async function udpClient(localAddress = '127.0.0.1'): Promise<UdpClient> {
  const socket = createSocket(localAddress.includes(':') ? 'udp6' : 'udp4');
  udpClients.add(socket);
  socket.once('close', () => udpClients.delete(socket));
  const queue: Buffer[] = [];
  const waiting: ((msg: Buffer) => void)[] = [];
  socket.on('message', (msg) => {
    const waiter = waiting.shift();
    if (waiter) waiter(msg);
    else queue.push(msg);
  });
  socket.bind(0, localAddress);
  await once(socket, 'listening');
  return {
    socket,
    send: (to, datagram) => socket.send(datagram, to.port, to.address),
    next: () => new Promise((resolve) => {
      const queued = queue.shift();
      if (queued) resolve(queued);
      else waiting.push(resolve);
    }),
  };
}

/**
 * Waits until no TCP socket is open in this process (the tests' own, closing from earlier steps), then counts the
 * handles a test must leave as it found them.
 */
export async function quietResources(): Promise<ReturnType<typeof resourceCounts>> {
  await vi.waitFor(() => expect(resourceCounts().sockets).toBe(0), { timeout: 10_000 });
  await new Promise((resolve) => setImmediate(resolve)); // waitFor's own timer is gone by then
  return resourceCounts();
}

/**
 * Waits until sockets and listeners are back to `before`, then checks that there are no more timers than before
 * (outside waitFor, whose own polling timer would count).
 */
export async function expectNoLeaks(before: ReturnType<typeof resourceCounts>): Promise<void> {
  await vi.waitFor(() => {
    const now = resourceCounts();
    expect({ sockets: now.sockets, servers: now.servers, udp: now.udp })
      .toEqual({ sockets: before.sockets, servers: before.servers, udp: before.udp });
  }, { timeout: 10_000 });
  await new Promise((resolve) => setImmediate(resolve));
  // A timer of the test runner's may have ended meanwhile; a leaked one of ours would make more.
  expect(resourceCounts().timers).toBeLessThanOrEqual(before.timers);
}

export function resourceCounts(): { sockets: number; timers: number; servers: number; udp: number } {
  const info = process.getActiveResourcesInfo();
  return {
    sockets: info.filter((t) => t === 'TCPSocketWrap').length,
    timers: info.filter((t) => t === 'Timeout').length,
    servers: info.filter((t) => t === 'TCPServerWrap').length,
    udp: info.filter((t) => t === 'UDPWrap').length,
  };
}

