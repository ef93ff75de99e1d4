import { createSocket, type RemoteInfo } from 'node:dgram';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { connect as h2connect, constants, type ClientHttp2Session } from 'node:http2';
import { createServer as createNetServer, isIPv4, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { GATEWAY_PROTOCOL, type ProxyKind } from '@cellport/shared/schemas/gateway-protocol';
import { closeStreamLater } from '../link/close-stream-later.js';
import { DatagramDeframer, frameDatagram } from '../link/datagram-frames.js';
import { linkChallenge, linkProofHolds } from '../link/link-proof.js';
import { POOL, POOL_ANSWER_TIMEOUT_MS, POOL_WAIT_MS, poolHeader } from '../link/pool-protocol.js';
import { markBurstyReader, splice } from '../proxy/splice.js';
import type { Logger } from '../proxy/types.js';
import { readChunks, withReusedReads } from './accepted-reads.js';
import type { KernelRelay } from '../relay/kernel-relay.js';
import { HostPool } from './host-pool.js';
import { createLinkListener } from './link-listener.js';
import { keepAlive, LINK_SETTINGS, LINK_WINDOW } from './link-settings.js';
import { TicketError, verifyLinkTicket, type LinkTicket } from './link-ticket.js';
import { refuseCustomer } from './refusal.js';

// The gateway (issue 18, docs/decisions/031-gateway.md): customers connect to it on their ports' numbers; it relays
// each connection over one of the pooled plain connections the port's host keeps open to it (decision 047), or as an
// HTTP/2 stream over the host's link when none is idle in time. It holds no state of its own but what
// the tickets say: which host owns which ports, and the host's fencing epoch. Links are taken only from the newest
// epoch a host has shown (an agent the server has replaced cannot take the ports back), and a newer link of the same
// epoch replaces the older one (the same agent reconnecting).

export interface GatewayOptions {
  id: string;
  trustKey: KeyObject;
  linkHost: string;
  linkPort: number;
  listenHost: string;
  tls?: { cert: string; key: string };
  log: Logger;
  /** The gateway's clock for ticket expiries (tests move it). */
  now?: () => number;
  /**
   * Whether agents are told to open pooled connections with the plain hello (default true); false answers as a
   * gateway from before it did, so agents use the HTTP upgrade (tests, and the bench's A/B of the two).
   */
  offerPoolHello?: boolean;
  /**
   * Relays a customer and a pooled connection in the kernel once joined (decision 050): no byte copied into the
   * process. Without it, or for a connection it cannot take (TLS links), the JavaScript relay.
   */
  kernelRelay?: KernelRelay | null;
}

interface HostLinks {
  epoch: number;
  /** The link key the current link proved; renewed tickets must bind the same. */
  linkKey: string;
  session: ClientHttp2Session | null;
  ports: Map<number, ProxyKind>;
  expiresAt: number;
  stopPing: (() => void) | null;
  /**
   * Customers' connections on the current link by the name a UDP association gives its control connection: the
   * stream's id, or `p<customer id>` for a pooled connection.
   */
  streams: Map<string, Socket>;
  /** The current link's pooled connections, and the id and secret they present (a new link gets new ones). */
  pool: HostPool | null;
  poolId: string;
  poolSecret: Buffer;
}

/** A port number listened on and the host it leads to now (a port that moved to another host is re-pointed: decision 045). */
interface PortListener { server: NetServer; hostId: string; kind: ProxyKind; issuedAt: number }

const EXPIRY_CHECK_MS = 5_000;

/** What the gateway's metrics read when scraped (gateway-metrics.ts). */
export interface GatewayStats {
  links: number;
  ports: number;
  openConnections: number;
  connections: number;
  /** Customers refused: the host's link down (or lost before the agent answered), or the agent not serving the port. */
  refused: { link_down: number; not_served: number };
  /**
   * Customers' connections by how they reached their host: a pooled connection, or an HTTP/2 stream on the link;
   * `kernel`: the pooled ones relayed in the kernel (decision 050), a part of `pooled`.
   */
  paths: { pooled: number; stream: number; kernel: number };
  /** Bytes to customers and from them, of closed connections and open ones so far. */
  bytesIn: number;
  bytesOut: number;
}

export class Gateway {
  private readonly hosts = new Map<string, HostLinks>();
  private readonly listeners = new Map<number, PortListener>();
  /** Agents' connections: the link and pooled connections (link-listener.ts), the HTTP ones passed to linkHttp. */
  private readonly linkServer: NetServer;
  private readonly linkHttp: HttpServer;
  private readonly customers = new Set<Socket>();
  private readonly expiryTimer: NodeJS.Timeout;
  private readonly now: () => number;
  private closed = false;
  /** Plain running counts for the metrics: added to once per connection, never per chunk. */
  private readonly counts = { connections: 0, refused: { link_down: 0, not_served: 0 }, paths: { pooled: 0, stream: 0, kernel: 0 }, bytesIn: 0, bytesOut: 0 };
  /** Hosts by the id of their current link's pool (a pooled connection names it with its secret). */
  private readonly pools = new Map<string, HostLinks>();
  /** Names customers' connections on pooled connections (their UDP associations refer to them by it). */
  private customerIds = 0;

  constructor(private readonly options: GatewayOptions) {
    this.now = options.now ?? Date.now;
    this.linkHttp = createHttpServer();
    this.linkHttp.on('request', (_req, res) => { res.writeHead(426, { 'content-type': 'text/plain' }).end('Cellport gateway link: upgrade required\n'); });
    this.linkHttp.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.onUpgrade(req, socket as Socket, head));
    this.linkServer = createLinkListener({
      http: this.linkHttp, tls: options.tls,
      // A key no link holds is not told why (an agent's own pool sees the close and tries again later).
      onHello: (socket, key) => this.onPooled(socket, key, () => socket.destroy()),
    });
    this.expiryTimer = setInterval(() => this.expireLinks(), EXPIRY_CHECK_MS).unref();
  }

  /** The link listener's port (the option's port 0 picks a free one, as tests do). */
  get linkPort(): number {
    const address = this.linkServer.address();
    return address && typeof address === 'object' ? address.port : 0;
  }

  /** Hosts with a link up now. */
  linkedHosts(): string[] {
    return [...this.hosts].filter(([, h]) => h.session && !h.session.closed).map(([id]) => id);
  }

  /** The gateway's figures now, for the metrics. */
  stats(): GatewayStats {
    let bytesIn = this.counts.bytesIn;
    let bytesOut = this.counts.bytesOut;
    for (const socket of this.customers) {
      const relayed = this.options.kernelRelay?.bytes(socket);
      bytesIn += socket.bytesWritten + (relayed?.written ?? 0);
      bytesOut += socket.bytesRead + (relayed?.read ?? 0);
    }
    return {
      links: this.linkedHosts().length, ports: this.listeners.size, openConnections: this.customers.size,
      connections: this.counts.connections, refused: { ...this.counts.refused }, paths: { ...this.counts.paths }, bytesIn, bytesOut,
    };
  }

  /** Idle pooled connections of a host's current link. */
  idlePooled(hostId: string): number {
    return this.hosts.get(hostId)?.pool?.idleCount ?? 0;
  }

  /** The ports listened on for a host. */
  portsOf(hostId: string): number[] {
    return [...this.listeners].filter(([, l]) => l.hostId === hostId).map(([port]) => port).sort((a, b) => a - b);
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.linkServer.once('error', reject);
      this.linkServer.listen({ host: this.options.linkHost, port: this.options.linkPort }, () => {
        this.linkServer.removeListener('error', reject);
        resolve();
      });
    });
    this.options.log.info({ link: `${this.options.linkHost}:${this.linkPort}` }, 'gateway listening for host links');
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.expiryTimer);
    for (const host of this.hosts.values()) this.dropLink(host);
    for (const socket of this.customers) socket.destroy();
    await Promise.all([...this.listeners.values()].map((l) => new Promise((resolve) => l.server.close(resolve))));
    this.listeners.clear();
    this.linkHttp.closeAllConnections();
    await new Promise((resolve) => this.linkServer.close(resolve));
  }

  // ---- links

  private async onUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    socket.on('error', () => {});
    const reject = (status: number, message: string) => {
      const body = `${message}\n`;
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 409 ? 'Conflict' : 'Bad Request'}\r\n`
        + `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    };
    if (req.url === POOL.path && req.headers.upgrade === POOL.upgrade) {
      const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      // The agent sends nothing before a customer's header has been answered: bytes here are not this protocol.
      if (head.length > 0) return void socket.destroy();
      return this.onPooled(socket, key, () => reject(401, 'no link holds this pool key: the agent opens pooled connections with the key of its current link'), () => {
        socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${POOL.upgrade}\r\n\r\n`);
      });
    }
    if (req.url !== GATEWAY_PROTOCOL.linkPath || req.headers.upgrade !== GATEWAY_PROTOCOL.upgrade) {
      return reject(400, `this is a Cellport gateway: agents upgrade ${GATEWAY_PROTOCOL.linkPath} to ${GATEWAY_PROTOCOL.upgrade}`);
    }
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    let ticket: LinkTicket;
    try {
      if (!bearer) throw new TicketError('a link needs a ticket (Authorization: Bearer)');
      ticket = await verifyLinkTicket(bearer, this.options.trustKey, this.options.id);
    } catch (err) {
      this.options.log.warn({ from: socket.remoteAddress, error: (err as Error).message }, 'link refused');
      return reject(401, (err as Error).message);
    }
    if (this.closed || socket.destroyed) return void socket.destroy();
    const host = this.hosts.get(ticket.hostId);
    if (host && ticket.epoch < host.epoch) {
      this.options.log.warn({ hostId: ticket.hostId, epoch: ticket.epoch, current: host.epoch }, 'link refused: a newer agent of this host has linked');
      return reject(409, 'fenced: a newer agent of this host holds its link');
    }
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${GATEWAY_PROTOCOL.upgrade}\r\n\r\n`);
    if (head.length > 0) socket.unshift(head);
    socket.setNoDelay(true);
    const session = h2connect('http://cellport-agent', { createConnection: () => socket, settings: LINK_SETTINGS });
    session.on('error', () => {});
    session.on('connect', () => { try { session.setLocalWindowSize(LINK_WINDOW); } catch { /* closed already */ } });
    // The ticket is not enough: the link is taken (and a holder replaced) only once the agent proved it holds the key
    // the ticket binds, so a replayed ticket cannot take a host's link (issue 26, item 10).
    const proven = await this.proofOf(session, ticket);
    if (!proven) {
      this.options.log.warn({ hostId: ticket.hostId, from: socket.remoteAddress }, 'link refused: no proof of the key its ticket binds');
      return void session.destroy();
    }
    const holder = this.hosts.get(ticket.hostId);
    if (this.closed || session.closed || session.destroyed || (holder && ticket.epoch < holder.epoch)) return void session.destroy();
    this.takeLink(ticket, session);
  }

  /**
   * A pooled connection from an agent (decision 047), by its hello or an HTTP upgrade: it presents the pool key the
   * gateway gave its proven link (`<pool id>.<secret>`), and joins that link's pool. A key of a link that is gone
   * (replaced, fenced, expired, a restarted gateway) opens nothing. `accepted` answers the upgrade (the hello has none).
   */
  private onPooled(socket: Socket, key: string, refuse: () => void, accepted?: () => void): void {
    const [poolId = '', secret = ''] = key.split('.');
    const host = this.pools.get(poolId);
    const given = Buffer.from(secret, 'base64url');
    if (!host?.pool || given.length !== host.poolSecret.length || !timingSafeEqual(given, host.poolSecret)) return refuse();
    if (this.closed || socket.destroyed) return void socket.destroy();
    accepted?.();
    socket.setNoDelay(true);
    host.pool.add(socket);
  }

  /** Asks the agent on a new link to sign a fresh challenge; true when the signature is by the ticket's link key. */
  private proofOf(session: ClientHttp2Session, ticket: LinkTicket): Promise<boolean> {
    const challenge = linkChallenge();
    return new Promise((resolve) => {
      let stream;
      try {
        stream = session.request({
          ':method': 'GET', ':path': GATEWAY_PROTOCOL.proofPath, [GATEWAY_PROTOCOL.challengeHeader]: challenge,
        }, { endStream: true });
      } catch {
        return resolve(false);
      }
      const done = (ok: boolean) => {
        clearTimeout(timer);
        resolve(ok);
        // Not at once: 'response' is emitted inside the link's receive (close-stream-later.ts).
        closeStreamLater(stream, constants.NGHTTP2_CANCEL);
      };
      const timer = setTimeout(() => done(false), GATEWAY_PROTOCOL.proofTimeoutMs).unref();
      stream.on('error', () => {});
      stream.once('response', (headers) => {
        done(headers[':status'] === 200 && linkProofHolds(ticket.linkKey, challenge, headers[GATEWAY_PROTOCOL.proofHeader]));
      });
      stream.once('close', () => done(false));
    });
  }

  private takeLink(ticket: LinkTicket, session: ClientHttp2Session): void {
    let host = this.hosts.get(ticket.hostId);
    if (!host) {
      host = {
        epoch: ticket.epoch, linkKey: ticket.linkKey, session: null, ports: new Map(), expiresAt: 0, stopPing: null, streams: new Map(),
        pool: null, poolId: '', poolSecret: Buffer.alloc(0),
      };
      this.hosts.set(ticket.hostId, host);
    }
    if (host.session) {
      this.options.log.warn({ hostId: ticket.hostId, epoch: ticket.epoch }, 'a newer link of this host replaces the older one');
      this.dropLink(host);
    }
    host.epoch = ticket.epoch;
    host.linkKey = ticket.linkKey;
    host.session = session;
    host.streams = new Map();
    host.pool = new HostPool();
    host.poolId = randomBytes(9).toString('base64url');
    host.poolSecret = randomBytes(32);
    this.pools.set(host.poolId, host);
    host.stopPing = keepAlive(session);
    this.applyTicket(ticket.hostId, host, ticket);
    this.options.log.info({ hostId: ticket.hostId, epoch: ticket.epoch, ports: ticket.ports.length }, 'host linked');
    const current = host;
    session.on('close', () => {
      if (current.session !== session) return;
      current.stopPing?.();
      current.session = null;
      current.stopPing = null;
      this.closePool(current);
      this.options.log.warn({ hostId: ticket.hostId }, 'host link down: its ports are refused until it is back');
    });
    this.readTickets(ticket.hostId, session, `${host.poolId}.${host.poolSecret.toString('base64url')}`);
  }

  /**
   * The agent's newer tickets (ports added or removed, the renewal), on a stream the gateway opens; its request gives
   * the agent the key its pooled connections present, and says they may open with the hello.
   */
  private readTickets(hostId: string, session: ClientHttp2Session, poolKey: string): void {
    const stream = session.request({
      ':method': 'GET', ':path': GATEWAY_PROTOCOL.ticketsPath, [POOL.keyHeader]: poolKey,
      ...(this.options.offerPoolHello === false ? {} : { [POOL.helloHeader]: '1' }),
    });
    stream.on('error', () => {});
    stream.setEncoding('utf8');
    let pending = '';
    stream.on('data', (text: string) => {
      pending += text;
      if (pending.length > 1_000_000) return closeStreamLater(stream, constants.NGHTTP2_CANCEL);
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl).trim();
        pending = pending.slice(nl + 1);
        if (line.startsWith('udp ')) this.openUdp(hostId, session, line.slice(4));
        else if (line) void this.renewTicket(hostId, session, line);
      }
    });
  }

  private async renewTicket(hostId: string, session: ClientHttp2Session, token: string): Promise<void> {
    try {
      const ticket = await verifyLinkTicket(token, this.options.trustKey, this.options.id);
      const host = this.hosts.get(hostId);
      if (!host || host.session !== session) return;
      if (ticket.hostId !== hostId || ticket.epoch !== host.epoch) throw new TicketError('a renewed ticket must be for the same host and epoch');
      if (ticket.linkKey !== host.linkKey) throw new TicketError('a renewed ticket must bind the key the link proved');
      this.applyTicket(hostId, host, ticket);
    } catch (err) {
      this.options.log.warn({ hostId, error: (err as Error).message }, 'renewed ticket refused; the link is closed');
      session.destroy();
    }
  }

  /**
   * A customer's SOCKS5 UDP ASSOCIATE reached the agent on stream `controlId`: a UDP socket here, on the address the
   * customer's TCP connection reached, for that customer's address only (the first datagram fixes its port), and a
   * stream to the agent carrying the datagrams. Either side closing ends both.
   */
  private openUdp(hostId: string, session: ClientHttp2Session, controlId: string): void {
    const host = this.hosts.get(hostId);
    const customer = host?.session === session ? host.streams.get(controlId) : undefined;
    const local = customer?.localAddress?.replace(/^::ffff:/, '');
    const client = customer?.remoteAddress?.replace(/^::ffff:/, '');
    if (!customer || !local || !client) return; // the agent's wait times out and it refuses the association
    const udp = createSocket(isIPv4(local) ? 'udp4' : 'udp6');
    udp.on('error', () => udp.close());
    udp.bind({ address: local, port: 0 }, () => {
      let stream;
      try {
        stream = session.request({
          ':method': 'CONNECT', ':authority': 'cellport-agent:udp', [GATEWAY_PROTOCOL.udpForHeader]: String(controlId),
          [GATEWAY_PROTOCOL.udpAddressHeader]: local, [GATEWAY_PROTOCOL.udpPortHeader]: String(udp.address().port),
        });
      } catch {
        return udp.close();
      }
      let clientPort = 0;
      let open = true;
      const end = () => {
        if (!open) return;
        open = false;
        udp.close();
        if (!stream.destroyed) stream.close(constants.NGHTTP2_CANCEL);
      };
      stream.on('error', () => {});
      stream.on('close', end);
      customer.once('close', end);
      udp.on('close', end);
      udp.on('message', (msg: Buffer, rinfo: RemoteInfo) => {
        if (rinfo.address.replace(/^::ffff:/, '') !== client) return;
        if (clientPort === 0) clientPort = rinfo.port;
        else if (rinfo.port !== clientPort) return;
        // A full link stream drops the datagram, as UDP may.
        if (stream.writableLength < 1024 * 1024) stream.write(frameDatagram(msg));
      });
      const deframer = new DatagramDeframer((datagram) => { if (clientPort !== 0 && open) udp.send(datagram, clientPort, client, () => {}); });
      stream.on('data', (chunk: Buffer) => deframer.push(chunk));
    });
  }

  private applyTicket(hostId: string, host: HostLinks, ticket: LinkTicket): void {
    host.expiresAt = ticket.expiresAt;
    host.ports = new Map(ticket.ports.map((p) => [p.port, p.kind]));
    for (const [port, listener] of this.listeners) {
      if (listener.hostId === hostId && host.ports.get(port) !== listener.kind) {
        this.listeners.delete(port);
        listener.server.close(); // its open connections go on until they end
      }
    }
    for (const [port, kind] of host.ports) this.listen(hostId, port, kind, ticket.issuedAt);
  }

  private expireLinks(): void {
    const now = this.now();
    for (const [hostId, host] of this.hosts) {
      if (host.session && host.expiresAt <= now) {
        this.options.log.warn({ hostId }, 'host link closed: its ticket expired without renewal');
        this.dropLink(host);
      }
    }
  }

  private dropLink(host: HostLinks): void {
    host.stopPing?.();
    host.stopPing = null;
    const session = host.session;
    host.session = null;
    session?.destroy();
    this.closePool(host);
  }

  private closePool(host: HostLinks): void {
    host.pool?.close();
    host.pool = null;
    this.pools.delete(host.poolId);
  }

  // ---- customers

  /**
   * Listens on a host's port, or points the listener at this host: a customer's port keeps its numbers when it moves
   * to another host behind this gateway (decision 045), and the ticket issued later says where it is now (the old
   * host's next ticket no longer names it; an older ticket that still does, arriving late, takes nothing back).
   */
  private listen(hostId: string, port: number, kind: ProxyKind, issuedAt: number): void {
    const existing = this.listeners.get(port);
    if (existing?.hostId === hostId) {
      existing.issuedAt = Math.max(existing.issuedAt, issuedAt);
      return;
    }
    if (existing) {
      if (issuedAt < existing.issuedAt) {
        this.options.log.error({ port, hostId, holder: existing.hostId }, 'port named by an older ticket than its holder\'s: not taken');
        return;
      }
      this.options.log.info({ port, hostId, from: existing.hostId }, 'port moved to another host');
      existing.hostId = hostId;
      existing.issuedAt = issuedAt;
      if (existing.kind === kind) return;
      this.listeners.delete(port);
      existing.server.close();
    }
    const server = createNetServer({ allowHalfOpen: true, noDelay: true, pauseOnConnect: true }, (socket) => {
      this.onCustomer(withReusedReads(socket), listener.hostId, port, kind);
    });
    const listener: PortListener = { server, hostId, kind, issuedAt };
    this.listeners.set(port, listener);
    server.on('error', (err) => {
      this.options.log.error({ port, hostId, err: String(err) }, 'cannot listen on a host\'s port');
      if (this.listeners.get(port) === listener) this.listeners.delete(port);
    });
    server.listen({ host: this.options.listenHost, port });
  }

  private onCustomer(socket: Socket, hostId: string, port: number, kind: ProxyKind): void {
    this.customers.add(socket);
    this.counts.connections++;
    socket.on('close', () => {
      this.customers.delete(socket);
      this.counts.bytesIn += socket.bytesWritten;
      this.counts.bytesOut += socket.bytesRead;
    });
    socket.on('error', () => {});
    const refuse = (reason: keyof GatewayStats['refused'] = 'link_down') => {
      this.counts.refused[reason]++;
      refuseCustomer(socket, kind);
    };
    const host = this.hosts.get(hostId);
    if (!host?.session || host.session.closed || host.session.destroyed) return refuse();
    socket.pause();
    void this.throughPool(host, socket, port, refuse).then((done) => {
      if (!done && !socket.destroyed) this.throughStream(hostId, socket, port, refuse);
    });
  }

  /**
   * The customer over one of the host's pooled connections: an idle one, or the next to open within POOL_WAIT_MS.
   * False (and nothing sent) when none came, or the one taken ended before the agent answered: the caller then uses
   * an HTTP/2 stream, so a customer is never refused for want of a pooled connection.
   */
  private async throughPool(host: HostLinks, socket: Socket, port: number, refuse: (reason?: keyof GatewayStats['refused']) => void): Promise<boolean> {
    const pool = host.pool;
    const link = pool ? await pool.take(POOL_WAIT_MS) : null;
    if (!link) return false;
    if (socket.destroyed) {
      link.destroy();
      return true;
    }
    const id = ++this.customerIds;
    const answer = await new Promise<Buffer | null>((resolve) => {
      const done = (chunk: Buffer | null) => {
        clearTimeout(timer);
        // Held until splice() takes it over: no byte after the answer can go unread.
        link.pause();
        stopReading();
        link.removeListener('close', gone);
        resolve(chunk);
      };
      const gone = () => done(null);
      const timer = setTimeout(() => { link.destroy(); done(null); }, POOL_ANSWER_TIMEOUT_MS).unref();
      // As 'data' (an upgraded connection) or from its reads' callback (a hello's: accepted-reads.ts).
      const stopReading = readChunks(link, done);
      link.once('close', gone);
      // A hello's connection was left paused by the link listener (an upgraded one was not): read now.
      link.resume();
      link.write(poolHeader(id, port, socket.remoteAddress ?? ''));
    });
    if (!answer) return false;
    if (answer[0] !== POOL.served) {
      link.destroy();
      refuse('not_served');
      return true;
    }
    if (socket.destroyed) {
      link.destroy();
      return true;
    }
    this.counts.paths.pooled++;
    const key = `p${id}`;
    host.streams.set(key, socket);
    socket.once('close', () => host.streams.delete(key));
    // The agent may already have sent the customer's first bytes with its answer.
    if (answer.length > 1) socket.write(answer.subarray(1));
    // In the kernel when it can take both as they are (counted when they end), else in JavaScript.
    const inKernel = this.options.kernelRelay?.join(socket, link, (end) => {
      this.counts.bytesOut += end.aToB;
      this.counts.bytesIn += end.bToA;
    });
    if (inKernel) this.counts.paths.kernel++;
    else splice(socket, link);
    return true;
  }

  private throughStream(hostId: string, socket: Socket, port: number, refuse: (reason?: keyof GatewayStats['refused']) => void): void {
    const session = this.hosts.get(hostId)?.session;
    if (!session || session.closed || session.destroyed) return refuse();
    let stream;
    try {
      stream = session.request({
        ':method': 'CONNECT', ':authority': `cellport-agent:${port}`,
        [GATEWAY_PROTOCOL.portHeader]: String(port), [GATEWAY_PROTOCOL.clientHeader]: socket.remoteAddress ?? '',
      });
    } catch {
      return refuse();
    }
    stream.on('error', () => {});
    // A UDP ASSOCIATE on this connection will name its stream's id (assigned at once on an open link, or when ready).
    this.counts.paths.stream++;
    const streams = this.hosts.get(hostId)!.streams;
    const remember = () => {
      const id = stream.id === undefined ? undefined : String(stream.id);
      if (id === undefined || streams.has(id)) return;
      streams.set(id, socket);
      socket.once('close', () => streams.delete(id));
    };
    if (stream.id !== undefined) remember();
    else stream.once('ready', remember);
    let answered = false;
    stream.once('response', (headers) => {
      answered = true;
      if (headers[':status'] !== 200) {
        closeStreamLater(stream, constants.NGHTTP2_CANCEL);
        return refuse('not_served');
      }
      markBurstyReader(stream as unknown as Socket);
      splice(socket, stream as unknown as Socket);
    });
    // The link went away before the agent answered: the same clear refusal as a link that is down.
    stream.once('close', () => { if (!answered && !socket.destroyed) refuse(); });
    socket.once('close', () => { if (!stream.destroyed) stream.close(constants.NGHTTP2_CANCEL); });
  }
}
