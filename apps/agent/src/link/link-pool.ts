import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, connect as netConnect, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { Logger } from '../proxy/types.js';
import type { ClientDatagramChannel } from '../proxy/udp-client-channel.js';
import { parsePoolHeader, POOL, POOL_RETRY_MS, poolHello, type PoolHeader } from './pool-protocol.js';

// The agent's pool of idle link connections (pool-protocol.ts, decision 047). It is filled while the HTTP/2 link is
// up and the gateway has given that link a pool key, topped up the moment one is taken, and emptied when the link
// goes (the key dies with it: a gateway restart or a replaced link makes every old pooled connection worthless).
// A taken connection is handed to the proxy as the plain socket it is, dressed in the customer's address and port.

export interface LinkPoolOptions {
  linkUrl: string;
  size: number;
  route(port: number): ((socket: Duplex) => void) | null;
  /** A SOCKS5 UDP association on the customer connection named `key` (its datagrams go over the HTTP/2 link). */
  openDatagramChannel(key: string): Promise<ClientDatagramChannel>;
  log: Logger;
}

const bytesReadOf = Object.getOwnPropertyDescriptor(Socket.prototype, 'bytesRead')!.get!;
const bytesWrittenOf = Object.getOwnPropertyDescriptor(Socket.prototype, 'bytesWritten')!.get!;

export class LinkPool {
  private key: string | null = null;
  /** Whether the gateway takes the hello (else each pooled connection is an HTTP upgrade, as older gateways want). */
  private hello = false;
  /** Bumped by every start and stop: a connection that opens for an older key is closed, not pooled. */
  private generation = 0;
  private opening = 0;
  private readonly idle = new Set<Socket>();
  private retryTimer: NodeJS.Timeout | null = null;
  /** Customers served over pooled connections (tests and the bench tell the paths apart with it). */
  served = 0;
  /** Keys this pool was started with: one per link the gateway took (tests wait for a new link's pool by it). */
  keys = 0;

  constructor(private readonly options: LinkPoolOptions) {}

  /** Idle pooled connections now. */
  get idleCount(): number {
    return this.idle.size;
  }

  /**
   * Fills the pool with connections that present `key` (by the hello when the gateway offers it), replacing whatever
   * an older key opened.
   */
  start(key: string, hello = false): void {
    this.stop();
    this.key = key;
    this.hello = hello;
    this.keys++;
    this.fill();
  }

  stop(): void {
    this.generation++;
    this.key = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    for (const socket of this.idle) socket.destroy();
    this.idle.clear();
  }

  private fill(): void {
    while (this.key !== null && this.retryTimer === null && this.idle.size + this.opening < this.options.size) this.open(this.key);
  }

  /** A failure does not reopen at once (a gateway going away would be met by a loop): the next fill is later. */
  private retryLater(): void {
    if (this.key === null || this.retryTimer) return;
    this.retryTimer = setTimeout(() => { this.retryTimer = null; this.fill(); }, POOL_RETRY_MS).unref();
  }

  private open(key: string): void {
    if (this.hello) return this.openWithHello(key);
    const { settle, failed } = this.startOpening();
    const url = new URL(POOL.path, this.options.linkUrl);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      agent: false,
      headers: { connection: 'Upgrade', upgrade: POOL.upgrade, authorization: `Bearer ${key}` },
      timeout: 10_000,
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', (err) => failed(err.message));
    request.on('response', (res: IncomingMessage) => {
      res.resume();
      failed(`the gateway answered ${res.statusCode}`);
    });
    request.on('upgrade', (_res, socket: Socket, head: Buffer) => {
      if (!settle()) return void socket.destroy();
      this.adopt(socket, head);
      this.fill();
    });
    request.end();
  }

  /**
   * A pooled connection that opens with the hello: a connect and one write, no answer. It is idle once connected; a
   * gateway that does not take its key closes it, which the idle connection's close handles (a later retry).
   */
  private openWithHello(key: string): void {
    const { settle, failed } = this.startOpening();
    const url = new URL(this.options.linkUrl);
    const secure = url.protocol === 'https:';
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port) || (secure ? 443 : 80);
    // As https.request would: the name checked against the certificate, not sent for an address.
    const socket = secure ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host }) : netConnect({ host, port });
    socket.write(poolHello(key));
    socket.setTimeout(10_000, () => socket.destroy(new Error('not connected within 10 s')));
    socket.on('error', (err) => failed(err.message));
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      socket.setTimeout(0);
      if (!settle()) return void socket.destroy();
      this.adopt(socket, Buffer.alloc(0));
      this.fill();
    });
  }

  /**
   * One pooled connection being opened (by either way): `settle()` ends it once, true when the pool still wants it
   * (no newer key since); `failed(why)` settles it and tries again shortly.
   */
  private startOpening(): { settle: () => boolean; failed: (why: string) => void } {
    const generation = this.generation;
    this.opening++;
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      this.opening--;
      return generation === this.generation;
    };
    const failed = (why: string) => {
      if (!settle()) return;
      // Once per retry, not per connection: a pool of 16 failing at once says it once.
      if (this.retryTimer === null) this.options.log.warn({ why }, 'pooled link connection not opened; trying again shortly');
      this.retryLater();
    };
    return { settle, failed };
  }

  /** An open pooled connection: idle until the gateway's header arrives with a customer. */
  private adopt(socket: Socket, head: Buffer): void {
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 10_000);
    // As a listener's socket: a customer who shuts down their sending side still receives the rest of the answer
    // (an HTTP client socket ends its own side at the peer's end otherwise).
    socket.allowHalfOpen = true;
    socket.on('error', () => {});
    this.idle.add(socket);
    let pending: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let parsed;
      try {
        parsed = parsePoolHeader(pending);
      } catch {
        return void socket.destroy();
      }
      if (!parsed) return;
      socket.removeListener('data', onData);
      socket.removeListener('close', onIdleClose);
      this.idle.delete(socket);
      this.fill();
      // The gateway sends the customer's bytes only after the answer: anything more is not this protocol.
      if (parsed.rest.length > 0) return void socket.destroy();
      this.serve(socket, parsed.header, pending.length - parsed.rest.length);
    };
    const onIdleClose = () => {
      if (this.idle.delete(socket)) this.retryLater();
    };
    socket.on('data', onData);
    socket.once('close', onIdleClose);
    if (head.length > 0) onData(head);
  }

  private serve(socket: Socket, header: PoolHeader, headerBytes: number): void {
    const handler = this.options.route(header.port);
    if (!handler) return void socket.end(Buffer.from([POOL.notServed]));
    socket.write(Buffer.from([POOL.served]));
    this.served++;
    // The customer as the front ends see it: their address for whitelists, the port they reached, and byte counts of
    // their bytes only (the header and the answer are the link's, not the customer's traffic).
    Object.defineProperties(socket, {
      remoteAddress: { value: header.client || undefined, configurable: true },
      remotePort: { value: undefined, configurable: true },
      remoteFamily: { value: header.client.includes(':') ? 'IPv6' : 'IPv4', configurable: true },
      localPort: { value: header.port, configurable: true },
      localAddress: { value: '0.0.0.0', configurable: true },
      bytesRead: { get() { return bytesReadOf.call(this) - headerBytes; }, configurable: true },
      bytesWritten: { get() { return bytesWrittenOf.call(this) - 1; }, configurable: true },
      openDatagramChannel: { value: () => this.options.openDatagramChannel(`p${header.customerId}`), configurable: true },
    });
    handler(socket);
  }
}
