import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createServer as createH2Server, type Http2Server, type ServerHttp2Session, type ServerHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { GATEWAY_PROTOCOL, type GatewayLinkReport } from '@cellport/shared/schemas/gateway-protocol';
import { keepAlive, LINK_SETTINGS, LINK_WINDOW } from '../gateway/link-settings.js';
import type { Logger } from '../proxy/types.js';
import { LinkDatagramChannel } from './link-datagram-channel.js';
import { newLinkKey, type LinkKey } from './link-proof.js';
import { LinkPool } from './link-pool.js';
import { LinkSocket } from './link-socket.js';
import { POOL, POOL_SIZE } from './pool-protocol.js';

// The agent's end of the gateway link (docs/decisions/031-gateway.md): one outbound connection, upgraded to HTTP/2
// with the agent as the HTTP/2 server, on which the gateway proves the link, takes tickets and carries UDP datagrams.
// Customers' connections come over pooled plain connections (link-pool.ts, decision 047), or as HTTP/2 streams on the
// link when the pool is empty (or the gateway is older than the pool). Reconnects with
// backoff and jitter from GATEWAY_PROTOCOL.reconnectMinMs to reconnectMaxMs; renews its ticket at half its life and
// whenever the host's ports change. Its tickets bind a key it holds, and it proves that to the gateway on each link.

export interface GatewayLinkOptions {
  linkUrl: string;
  /** A fresh ticket from the server, bound to this link's key (the host agent asks over its server connection). */
  ticket(linkKey: string): Promise<string>;
  /** The handler of a customer connection that reached this port at the gateway, or null when no modem serves it. */
  route(port: number): ((socket: Duplex) => void) | null;
  /** Idle pooled connections kept ready (POOL_SIZE; 0 sends every customer over an HTTP/2 stream). */
  poolSize?: number;
  /** Every change of the link's state (sent to the server in heartbeats). */
  onState?(report: GatewayLinkReport): void;
  log: Logger;
}

export class GatewayLink {
  private readonly h2: Http2Server;
  private session: ServerHttp2Session | null = null;
  private tickets: ServerHttp2Stream | null = null;
  private stopPing: (() => void) | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private stopped = false;
  private report: GatewayLinkReport = { state: 'connecting' };
  /** The key this link proves itself with to the gateway; its tickets bind the public half. */
  private readonly key: LinkKey = newLinkKey();
  /** UDP associations waiting for the gateway's datagram stream, by the id of their control stream. */
  private readonly udpWaiters = new Map<string, (channel: LinkDatagramChannel | null) => void>();
  /** The pooled connections customers' bytes ride (filled once the gateway gave this link a pool key). */
  readonly pool: LinkPool;

  constructor(private readonly options: GatewayLinkOptions) {
    this.pool = new LinkPool({
      linkUrl: options.linkUrl, size: options.poolSize ?? POOL_SIZE, route: (port) => options.route(port), log: options.log,
      openDatagramChannel: (key) => this.openDatagramChannel(key),
    });
    this.h2 = createH2Server({ settings: LINK_SETTINGS });
    this.h2.on('session', (session) => this.onSession(session));
    this.h2.on('stream', (stream, headers) => this.onStream(stream, headers));
  }

  get state(): GatewayLinkReport {
    return this.report;
  }

  get url(): string {
    return this.options.linkUrl;
  }

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  /** Closes the link (every customer connection on it ends) and stops reconnecting. */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.renewTimer) clearTimeout(this.renewTimer);
    this.retryTimer = this.renewTimer = null;
    this.pool.stop();
    this.stopPing?.();
    this.session?.destroy();
    this.session = null;
  }

  /** Sends the gateway a new ticket now (the host's ports changed). */
  renewNow(): void {
    if (this.tickets) void this.renew();
  }

  private setState(report: GatewayLinkReport): void {
    const changed = report.state !== this.report.state || report.problem !== this.report.problem;
    this.report = report;
    if (changed) this.options.onState?.(report);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let ticket: string;
    try {
      ticket = await this.options.ticket(this.key.publicKey);
    } catch (err) {
      return this.retry('connecting', `no ticket from the server: ${(err as Error).message}`);
    }
    if (this.stopped) return;
    const url = new URL(GATEWAY_PROTOCOL.linkPath, this.options.linkUrl);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      headers: { connection: 'Upgrade', upgrade: GATEWAY_PROTOCOL.upgrade, authorization: `Bearer ${ticket}` },
      timeout: 10_000,
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', (err) => this.retry('connecting', `cannot reach the gateway at ${this.options.linkUrl}: ${err.message}`));
    request.on('response', (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (t: string) => { if (body.length < 300) body += t; });
      res.on('end', () => {
        const why = `the gateway refused the link (${res.statusCode}): ${body.trim()}`;
        // Fenced (409): another agent of this host holds the link; it is tried again slowly, in case that one goes.
        this.retry('refused', why, res.statusCode === 409 ? GATEWAY_PROTOCOL.reconnectMaxMs : undefined);
      });
    });
    request.on('upgrade', (_res, socket: Socket, head: Buffer) => {
      if (this.stopped) return void socket.destroy();
      socket.setNoDelay(true);
      socket.setKeepAlive(true, 10_000);
      if (head.length > 0) socket.unshift(head);
      this.h2.emit('connection', socket);
    });
    request.end();
  }

  private retry(state: GatewayLinkReport['state'], problem: string, delayMs?: number): void {
    if (this.stopped) return;
    this.setState({ state, problem: problem.slice(0, 300) });
    if (this.attempt === 0 || this.attempt % 10 === 0) this.options.log.warn({ attempt: this.attempt }, problem);
    const { reconnectMinMs, reconnectMaxMs } = GATEWAY_PROTOCOL;
    const backoff = delayMs ?? Math.min(reconnectMaxMs, reconnectMinMs * 2 ** this.attempt);
    this.attempt++;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // Jitter: a gateway that restarts is not met by every host at the same instant.
    this.retryTimer = setTimeout(() => { this.retryTimer = null; void this.connect(); }, backoff * (0.5 + Math.random() / 2)).unref();
  }

  private onSession(session: ServerHttp2Session): void {
    if (this.stopped) return void session.destroy();
    this.session?.destroy();
    this.session = session;
    session.on('error', () => {});
    // The link's receive window (the server side sets it on the session itself; 'connect' is the client's event).
    try { session.setLocalWindowSize(LINK_WINDOW); } catch { /* closed already */ }
    this.stopPing = keepAlive(session);
    this.attempt = 0;
    this.setState({ state: 'up' });
    this.options.log.info({ gateway: this.options.linkUrl }, 'linked to the gateway');
    session.on('close', () => {
      if (this.session !== session) return;
      this.session = null;
      this.tickets = null;
      this.pool.stop();
      this.stopPing?.();
      this.stopPing = null;
      if (this.renewTimer) clearTimeout(this.renewTimer);
      this.renewTimer = null;
      this.retry('connecting', 'the gateway link dropped: reconnecting');
    });
  }

  private onStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    stream.on('error', () => {});
    const challenge = headers[GATEWAY_PROTOCOL.challengeHeader];
    if (headers[':method'] === 'GET' && headers[':path'] === GATEWAY_PROTOCOL.proofPath && typeof challenge === 'string') {
      // The gateway's first question on a new link: proof that this agent holds the key its ticket binds.
      stream.respond({ ':status': 200, [GATEWAY_PROTOCOL.proofHeader]: this.key.prove(challenge.slice(0, 100)) }, { endStream: true });
      return;
    }
    if (headers[':method'] === 'GET' && headers[':path'] === GATEWAY_PROTOCOL.ticketsPath) {
      stream.respond({ ':status': 200, 'content-type': 'text/plain' });
      this.tickets = stream;
      this.scheduleRenewal();
      // A gateway with the pool names this link's key on the same request (an older one does not: streams only), and
      // says whether pooled connections may open with the hello (an older one takes only the HTTP upgrade).
      const poolKey = headers[POOL.keyHeader];
      if (typeof poolKey === 'string' && poolKey) this.pool.start(poolKey, headers[POOL.helloHeader] === '1');
      return;
    }
    const udpFor = headers[GATEWAY_PROTOCOL.udpForHeader];
    if (typeof udpFor === 'string') return this.onDatagramStream(stream, headers, udpFor);
    const port = Number(headers[GATEWAY_PROTOCOL.portHeader]);
    const handler = headers[':method'] === 'CONNECT' && Number.isInteger(port) ? this.options.route(port) : null;
    if (!handler) {
      stream.respond({ ':status': 404 }, { endStream: true });
      return;
    }
    stream.respond({ ':status': 200 });
    const client = headers[GATEWAY_PROTOCOL.clientHeader];
    const socket = new LinkSocket(stream, typeof client === 'string' && client ? client : undefined, port, '0.0.0.0');
    socket.openDatagramChannel = () => this.openDatagramChannel(String(stream.id));
    handler(socket);
  }

  /**
   * A UDP association of a customer whose control connection is named `id` (an HTTP/2 stream's id, or `p<customer
   * id>` for a pooled connection): the gateway binds a UDP socket for the customer and opens a stream for the datagrams
   * (decision 031). Rejects when it does not come in time.
   */
  private openDatagramChannel(id: string): Promise<LinkDatagramChannel> {
    const tickets = this.tickets;
    if (!tickets || tickets.destroyed || id === 'undefined') return Promise.reject(new Error('no gateway link for UDP'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.udpWaiters.delete(id);
        reject(new Error('the gateway did not open the UDP relay in time'));
      }, GATEWAY_PROTOCOL.udpOpenTimeoutMs);
      this.udpWaiters.set(id, (channel) => {
        clearTimeout(timer);
        this.udpWaiters.delete(id);
        if (channel) resolve(channel);
        else reject(new Error('the gateway could not open the UDP relay'));
      });
      tickets.write(`udp ${id}\n`);
    });
  }

  private onDatagramStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, controlId: string): void {
    const waiter = this.udpWaiters.get(controlId);
    const address = headers[GATEWAY_PROTOCOL.udpAddressHeader];
    const port = Number(headers[GATEWAY_PROTOCOL.udpPortHeader]);
    if (!waiter || typeof address !== 'string' || !Number.isInteger(port)) {
      stream.respond({ ':status': 404 }, { endStream: true });
      return;
    }
    stream.respond({ ':status': 200 });
    waiter(new LinkDatagramChannel(stream, { address, port }));
  }

  private scheduleRenewal(): void {
    if (this.renewTimer) clearTimeout(this.renewTimer);
    this.renewTimer = setTimeout(() => void this.renew(), (GATEWAY_PROTOCOL.ticketSeconds * 1000) / 2).unref();
  }

  private async renew(): Promise<void> {
    const stream = this.tickets;
    try {
      const ticket = await this.options.ticket(this.key.publicKey);
      if (stream && !stream.destroyed && stream === this.tickets) stream.write(`${ticket}\n`);
    } catch (err) {
      this.options.log.warn({ error: (err as Error).message }, 'ticket not renewed; trying again in a minute');
      this.renewTimer = setTimeout(() => void this.renew(), 60_000).unref();
      return;
    }
    this.scheduleRenewal();
  }
}
