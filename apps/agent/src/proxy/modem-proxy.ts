import { connect, isIP } from 'node:net';
import type { Server as NetServer, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AuthGuard } from './auth-guard.js';
import { ClientConnection, ignore, kConn, kListener, UpstreamError } from './connection.js';
import { ConnectDeadlines } from './connect-deadlines.js';
import type { Waiting } from './connect-deadlines.js';
import type { Admission, Identity, ProxyCore, TrackedSocket, UpstreamFailure } from './connection.js';
import { createHttpProxyServer } from './http-proxy.js';
import type { HttpProxyServer } from './http-proxy.js';
import { AMBIGUOUS, closedReason, isPortOpen, PortAccessTable } from './port-access.js';
import { ProxyCounters } from './proxy-counters.js';
import { bindClient, isRateLimited, PortRateLimits } from './port-rate-limit.js';
import type { PortEntry } from './port-access.js';
import { createSocksServer } from './socks5-proxy.js';
import { systemSourcePort } from './source-ports.js';
import { TARGET_READS } from './target-reads.js';
import type { TargetPolicy } from './target-policy.js';
import type { TrafficMeter } from './traffic-meter.js';
import { UdpAssociation } from './udp-association.js';
import { UpstreamPool } from './upstream-pool.js';
import { DirectClientChannel } from './udp-client-channel.js';
import type { ClientDatagramChannel, RelayAddress } from './udp-client-channel.js';
import type { Logger, PortAccess, ProxyLimits } from './types.js';
import { FingerprintUnavailable, type FingerprintEgress } from '../fingerprint/fingerprint-egress.js';
import type { KernelRelay } from '../relay/kernel-relay.js';
import { KernelTunnel } from './kernel-tunnel.js';
import { splice } from './splice.js';

// One modem's proxy: its HTTP and SOCKS5 listeners, the access rules of the customer ports it serves, its egress
// address, and every client connection, so that a change of rules, an expiry, a rotation or close() reaches the
// connections it concerns at once.

export const DEFAULT_LIMITS: ProxyLimits = {
  maxConnectionsPerPort: 200,
  idleTimeoutMs: 5 * 60_000,
  handshakeTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  rotationWaitMs: 30_000,
  udpIdleTimeoutMs: 2 * 60_000,
};

/** How often open connections are checked against their port's expiry (a port expired offline is cut within it). */
export const SWEEP_INTERVAL_MS = 1000;

export interface ModemProxyOptions {
  imei: string;
  listenHost: string;
  httpPort: number;
  socksPort: number;
  /** Source address of every outgoing connection (the modem's binding; 127.0.x.y for simulated modems). */
  egress: string;
  policy: TargetPolicy;
  meter: TrafficMeter;
  log: Logger;
  limits?: Partial<ProxyLimits>;
  /** The agent's clock for expiries (tests move it). */
  now?: () => number;
  /** The bandwidth buckets' monotonic clock in ms (default performance.now): a test refills them by moving it. */
  rateClock?: () => number;
  /**
   * False for a host behind a gateway (its customers' connections arrive over the link, acceptStream), or when every
   * port of the modem has listeners of its own (decision 045, port-listeners.ts): no listener on httpPort/socksPort.
   */
  listen?: boolean;
  /** Where connections and refusals are counted (the host agent shares one among its modems); default: its own. */
  counters?: ProxyCounters;
  /** Where wrong passwords are counted and blocked (the host agent shares one among its modems); default: its own. */
  authGuard?: AuthGuard;
  /**
   * How ports with an OS fingerprint preset reach targets (issue 30); absent: this host cannot apply presets, and
   * such ports refuse new connections (fail closed) instead of leaving with the host's own fingerprint.
   */
  fingerprint?: FingerprintEgress;
  /**
   * Relays established tunnels in the kernel (relay/kernel-relay.ts: splice() on a native thread) instead of in
   * JavaScript, except on ports with a bandwidth limit; absent or null: every tunnel is relayed in JavaScript.
   */
  kernelRelay?: KernelRelay | null;
  /**
   * The source port of the next target connection (0: the kernel's choice). Default: a random port of the kernel's
   * ephemeral range (source-ports.ts); tests name ports to show the retries.
   */
  sourcePort?: () => number;
}

type Preset = Exclude<NonNullable<PortAccess['fingerprint']>, 'native'>;
const presetOf = (access: PortAccess | undefined): Preset | null =>
  access?.fingerprint && access.fingerprint !== 'native' ? access.fingerprint : null;

interface RotationWaiter { timer: NodeJS.Timeout; done: (ok: boolean) => void }

function onClientClose(this: TrackedSocket): void {
  const conn = this[kConn];
  if (conn) (conn.core as ModemProxy).release(conn);
}

// A tunnel's target connection while it connects: how to settle connectTarget's promise, null once settled. The
// handlers are module-level and stay on the socket after it connected (an error is then ignored as for every relayed
// socket), so a tunnel costs no closures and no listener removals here; four closures and three removeListener calls
// per tunnel were on the profile of new tunnels (bench/BENCHMARKS.md, 2026-12-06). Its connect timeout is a place in
// the modem's ConnectDeadlines (connect-deadlines.ts), not a timer of its own.
const kSettle = Symbol('cellport.settle');
class Settle implements Waiting {
  /** Source ports tried so far (source-ports.ts): a taken one is retried with another. */
  tries = 0;
  /** The try connecting now. */
  socket: Connecting | null = null;
  deadline = 0;
  prevWaiting: Waiting | null = null;
  nextWaiting: Waiting | null = null;
  waiting = false;

  constructor(readonly resolve: (socket: Socket) => void, readonly reject: (err: Error) => void,
    readonly proxy: ModemProxy, readonly conn: ClientConnection, readonly address: string, readonly port: number,
    /** The port's preset: the socket is the preset's (fingerprint/), set up before dial() is called. */
    readonly preset: Preset | null = null) {}
}
type Connecting = Socket & { [kSettle]?: Settle | null };

/** Named source ports tried before the last try leaves the choice to the kernel (port 0). */
const SOURCE_PORT_TRIES = 3;

/**
 * One try at the target connection (a named source port, or on the last try the kernel's). A port with a preset: its
 * preset's socket, bound to the egress with the port left to connect() (no named ports, no retries), and otherwise
 * the same path, deadlines and handlers as a native one.
 */
function dial(settle: Settle): void {
  const { proxy, conn } = settle;
  let upstream: Connecting;
  if (settle.preset !== null) {
    settle.tries = SOURCE_PORT_TRIES + 1;
    try {
      upstream = proxy.presetSocket(settle.preset);
    } catch (err) {
      settle.reject(err instanceof FingerprintUnavailable ? new UpstreamError('fingerprint', err.message)
        : new UpstreamError(connectFailure((err as NodeJS.ErrnoException).code), (err as Error).message));
      return;
    }
    upstream.connect({ host: settle.address, port: settle.port, noDelay: true });
  } else {
    const localPort = settle.tries < SOURCE_PORT_TRIES ? proxy.sourcePort() : 0;
    settle.tries++;
    // noDelay as an option: set once when connected, where setNoDelay() before connecting cost a second setsockopt.
    upstream = connect({
      host: settle.address, port: settle.port, localAddress: proxy.egress, localPort, allowHalfOpen: true, noDelay: true,
      onread: TARGET_READS,
    });
  }
  conn.upstream = upstream; // from now on, the client's close, setEgress and close() destroy it too
  upstream[kSettle] = settle;
  settle.socket = upstream;
  proxy.connectDeadlines.add(settle);
  upstream.on('error', onTargetError);
  upstream.on('close', onTargetClose);
  upstream.on('connect', onTargetConnect);
}

function settled(socket: Connecting): Settle | null {
  const settle = socket[kSettle] ?? null;
  socket[kSettle] = null;
  if (settle !== null) settle.proxy.connectDeadlines.remove(settle);
  return settle;
}
function onTargetConnect(this: Connecting): void {
  const settle = settled(this);
  if (settle === null) return;
  // No idle timer of its own once connected: the tunnel's is the client socket's, which every byte either way refreshes
  // (relayed bytes are read from it or written to it), and the client's close takes this socket with it (release).
  settle.proxy.countUpstream(this);
  settle.resolve(this);
}
/** connectTimeoutMs passed while connecting (504); the socket goes. */
function onConnectExpired(settle: Settle): void {
  const socket = settle.socket!;
  if (socket[kSettle] !== settle) return;
  socket[kSettle] = null;
  socket.destroy();
  settle.reject(new UpstreamError('timeout'));
}
function onTargetError(this: Connecting, err: NodeJS.ErrnoException): void {
  const settle = settled(this);
  if (settle === null) return;
  // The named source port is held by a listener (bind) or the four-tuple by another connection (connect): another port.
  if ((err.code === 'EADDRINUSE' || err.code === 'EADDRNOTAVAIL') && settle.tries <= SOURCE_PORT_TRIES &&
    !settle.conn.socket.destroyed && settle.conn.upstream === this) {
    dial(settle);
    return;
  }
  settle.reject(new UpstreamError(connectFailure(err.code), err.message));
}
function onTargetClose(this: Connecting): void {
  settled(this)?.reject(new UpstreamError('failed', 'closed while connecting'));
}

// carried()'s count of a target connection ends with it; module-level so a tunnel costs no closure for it.
const kCounted = Symbol('cellport.counted');
type Counted = Socket & { [kCounted]?: ModemProxy };
function onCountedClose(this: Counted): void {
  this[kCounted]!.uncountUpstream(this);
}

function sweepKernelTunnels(proxy: ModemProxy): void {
  proxy.sweepKernelTunnels();
}

function connectFailure(code: string | undefined): UpstreamFailure {
  if (code === 'ECONNREFUSED') return 'connection-refused';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT') return 'unreachable';
  return 'failed';
}

export class ModemProxy implements ProxyCore {
  readonly imei: string;
  readonly limits: ProxyLimits;
  readonly log: Logger;
  readonly counters: ProxyCounters;
  private readonly guard: AuthGuard;
  private readonly options: ModemProxyOptions;
  private readonly now: () => number;
  private readonly httpServer: HttpProxyServer;
  private readonly socksServer: NetServer;
  private table = new PortAccessTable([]);
  private readonly conns = new Set<ClientConnection>();
  /** Admitted connections per port: the per-port limit, and what an expiry or a rule change closes. */
  private readonly byPort = new Map<string, Set<ClientConnection>>();
  /** Each port's bandwidth buckets, shared by its connections (port-rate-limit.ts). */
  private readonly rates: PortRateLimits;
  private egressAddress: string;
  private egressFamily: 4 | 6;
  /**
   * Keep-alive pools for plain HTTP forwarding, one per customer port (issue 26): an upstream connection is never
   * reused for another customer's request, so one whose framing a client managed to upset can only ever hurt the
   * customer who sent it. Made on a port's first forwarded request; destroyed when the port leaves the table.
   */
  private readonly agents = new Map<string, UpstreamPool>();
  private rotating = false;
  private readonly waiters = new Set<RotationWaiter>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private state: 'new' | 'starting' | 'listening' | 'draining' | 'closed' = 'new';
  /** Whether httpPort/socksPort are listened on now (setListening turns them on and off without closing anyone). */
  private modemListening = false;
  /** Connections to targets through the egress, open, and what the closed ones received (carried()). */
  private readonly upstreams = new Set<Socket>();
  private upstreamsClosed = 0;
  /** Tunnels the kernel relays now (relayTunnel), and the sweep that ends idle ones (their sockets see no bytes). */
  private readonly kernelTunnels = new Set<KernelTunnel>();
  private kernelSweep: NodeJS.Timeout | null = null;
  /** The source port of the next target connection (ModemProxyOptions.sourcePort). */
  readonly sourcePort: () => number;
  /** Target connections still connecting, and when each runs out of connectTimeoutMs. */
  readonly connectDeadlines: ConnectDeadlines<Settle>;

  constructor(options: ModemProxyOptions) {
    this.options = options;
    this.imei = options.imei;
    this.log = options.log;
    this.counters = options.counters ?? new ProxyCounters();
    this.now = options.now ?? Date.now;
    this.rates = new PortRateLimits(options.rateClock);
    this.guard = options.authGuard ?? new AuthGuard(this.counters, this.log, this.now);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.egressAddress = options.egress;
    this.egressFamily = ModemProxy.family(options.egress);
    this.sourcePort = options.sourcePort ?? systemSourcePort;
    this.connectDeadlines = new ConnectDeadlines(this.limits.connectTimeoutMs, onConnectExpired);
    this.httpServer = createHttpProxyServer(this);
    this.socksServer = createSocksServer(this);
    // A failure to listen is start()'s to report (the runtime logs one line); errors after that are logged here.
    this.httpServer.on('error', (err) => { if (this.state !== 'starting') this.log.error({ imei: this.imei, err: String(err) }, 'HTTP proxy listener error'); });
    this.socksServer.on('error', (err) => { if (this.state !== 'starting') this.log.error({ imei: this.imei, err: String(err) }, 'SOCKS5 listener error'); });
  }

  private static family(address: string): 4 | 6 {
    const family = isIP(address);
    if (family === 0) throw new Error(`Egress address "${address}" is not an IP address`);
    return family as 4 | 6;
  }

  get egress(): string {
    return this.egressAddress;
  }

  forwardPool(portId: string): UpstreamPool {
    let pool = this.agents.get(portId);
    if (pool === undefined) this.agents.set(portId, (pool = this.createPool(presetOf(this.table.get(portId)?.access))));
    return pool;
  }

  /** Upstream keep-alive pools open (one per port that forwarded plain HTTP since it was last cut). */
  get forwardPoolCount(): number {
    return this.agents.size;
  }

  private destroyAgents(keep: (portId: string) => boolean = () => false): void {
    for (const [portId, agent] of this.agents) {
      if (keep(portId)) continue;
      agent.destroy();
      this.agents.delete(portId);
    }
  }

  /** Open client connections, authenticated or not (for heartbeats). */
  get connectionCount(): number {
    return this.conns.size;
  }

  /** The ports actually listened on (port 0 in the options picks free ones, as the tests do); null before start. */
  get listeningPorts(): { http: number; socks: number } | null {
    const http = this.httpServer.address();
    const socks = this.socksServer.address();
    if (http === null || socks === null || typeof http === 'string' || typeof socks === 'string') return null;
    return { http: http.port, socks: socks.port };
  }

  /**
   * What the modem carried for customers: bytes received from targets through the egress, plus one for each
   * connection made. It only grows while the modem works, which the health checks take as proof (issue 28, item 2).
   */
  carried(): number {
    let n = this.upstreamsClosed;
    for (const s of this.upstreams) n += s.bytesRead + 1;
    // A kernel-relayed tunnel's target socket reads nothing in JavaScript: what it carried is what the client got.
    for (const t of this.kernelTunnels) n += t.relayed().written;
    return n;
  }

  relayTunnel(conn: ClientConnection, upstream: Socket): void {
    const relay = this.options.kernelRelay;
    if (relay && !isRateLimited(conn.socket) && this.state !== 'closed') {
      const tunnel = new KernelTunnel(conn, relay, Date.now());
      const joined = relay.joinReading(conn.socket, upstream, (end) => {
        tunnel.ended(end);
        if (this.kernelTunnels.delete(tunnel)) this.upstreamsClosed += end.bToA;
      });
      if (joined) {
        conn.relayed = tunnel;
        // Its idle timer cannot see the relay's bytes: the sweep measures its idleness instead.
        conn.socket.setTimeout(0);
        this.kernelTunnels.add(tunnel);
        this.counters.kernelTunnels++;
        this.kernelSweep ??= setInterval(sweepKernelTunnels, Math.max(50, Math.min(30_000, this.limits.idleTimeoutMs / 4)), this).unref();
        return;
      }
    }
    splice(conn.socket, upstream);
  }

  /** Ends kernel-relayed tunnels that moved no byte for idleTimeoutMs (what the client socket's timer does otherwise). */
  sweepKernelTunnels(now: number = Date.now()): void {
    for (const t of this.kernelTunnels) {
      const moved = t.relayed();
      const total = moved.read + moved.written;
      if (total !== t.lastTotal) {
        t.lastTotal = total;
        t.lastMovedAt = now;
      } else if (now - t.lastMovedAt >= this.limits.idleTimeoutMs) {
        t.conn.socket.destroy();
      }
    }
    if (this.kernelTunnels.size === 0 && this.kernelSweep !== null) {
      clearInterval(this.kernelSweep);
      this.kernelSweep = null;
    }
  }

  /** Counts a target connection in carried() (its own, once connected). */
  countUpstream(socket: Socket): void {
    this.upstreams.add(socket);
    (socket as Counted)[kCounted] = this;
    // on, not once: a socket closes once, and once() wraps the handler in a new closure per tunnel, removed when it fires.
    socket.on('close', onCountedClose);
  }

  /** A counted target connection closed: what it received stays in carried(). */
  uncountUpstream(socket: Socket): void {
    this.upstreams.delete(socket);
    this.upstreamsClosed += socket.bytesRead + 1;
  }

  /** New connections waiting for the rotation to end. */
  get waitingForRotation(): number {
    return this.waiters.size;
  }

  /** Listens on both ports; if either cannot be bound, closes what it opened and rejects naming the port. */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error(`ModemProxy ${this.imei} was already started`);
    this.state = 'starting';
    const { listenHost, httpPort, socksPort } = this.options;
    try {
      if (this.options.listen !== false) {
        await listen(this.httpServer, listenHost, httpPort, 'HTTP proxy', this.imei);
        await listen(this.socksServer, listenHost, socksPort, 'SOCKS5', this.imei);
        this.modemListening = true;
      }
    } catch (err) {
      await this.close();
      throw err;
    }
    if (this.state !== 'starting') return; // closed while starting
    this.state = 'listening';
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  /**
   * Opens or closes the modem's own httpPort/socksPort (decision 045: needed only while some port of the modem has no
   * listener of its own). Connections already taken stay open either way.
   */
  async setListening(on: boolean): Promise<void> {
    if (this.state !== 'listening' || on === this.modemListening) return;
    const { listenHost, httpPort, socksPort } = this.options;
    if (!on) {
      // Not closeServer: its callback waits for the connections taken, which setPorts ends when their port leaves.
      this.modemListening = false;
      this.httpServer.close();
      this.socksServer.close();
      return;
    }
    await listen(this.httpServer, listenHost, httpPort, 'HTTP proxy', this.imei);
    try {
      await listen(this.socksServer, listenHost, socksPort, 'SOCKS5', this.imei);
    } catch (err) {
      await closeServer(this.httpServer);
      throw err;
    }
    this.modemListening = true;
  }

  /** New access rules; open connections that they no longer allow are closed at once. */
  setPorts(ports: readonly PortAccess[]): void {
    const table = new PortAccessTable(ports);
    if (table.invalidWhitelistEntries.length > 0) {
      this.log.warn({ imei: this.imei, entries: table.invalidWhitelistEntries }, 'Whitelist entries that are not addresses were skipped');
    }
    if (table.overlappingWhitelists.length > 0) {
      this.log.warn({ imei: this.imei, ports: table.overlappingWhitelists },
        'Whitelists of ports of this modem overlap: their shared addresses are refused without credentials');
    }
    const old = this.table;
    this.table = table;
    this.rates.update(ports);
    // A port that is capped now cannot cap what the kernel relays: its kernel-relayed tunnels end (the customer's
    // next connection is relayed in JavaScript, within the cap).
    for (const t of this.kernelTunnels) if (isRateLimited(t.conn.socket)) t.conn.socket.destroy();
    // A port whose preset changed gets a new pool: its next connections leave with the new preset.
    this.destroyAgents((portId) => table.get(portId) !== undefined && presetOf(table.get(portId)!.access) === presetOf(old.get(portId)?.access));
    for (const port of ports) {
      const preset = presetOf(port);
      if (preset !== null) this.options.fingerprint?.prepare(preset, this.egressAddress);
    }
    const now = this.now();
    for (const conn of this.conns) {
      if (conn.entry === null) continue;
      const next = this.currentEntry(conn);
      if (next === undefined || (conn.portId !== null && !isPortOpen(next, now))) conn.socket.destroy();
      else conn.entry = next;
    }
  }

  /** The entry that still identifies conn as the same port with the same credentials, or undefined. */
  private currentEntry(conn: ClientConnection): PortEntry | undefined {
    const old = conn.entry!;
    const next = conn.viaLogin ? this.table.byLogin(old.access.login) : this.whitelistedEntry(conn);
    if (next === undefined || next.access.id !== old.access.id) return undefined;
    if (conn.viaLogin && !next.passwordHash.equals(old.passwordHash)) return undefined;
    return next;
  }

  /**
   * New connections leave from `address`; tunnels and pooled connections opened before are closed when the address
   * changes, or always with `newPublicIp` (a rotation): a HiLink keeps its LAN address across a reconnect, so the same
   * source address now stands for a new public IP, and a customer must not keep using the old one.
   */
  setEgress(address: string, { newPublicIp = false }: { newPublicIp?: boolean } = {}): void {
    if (address === this.egressAddress && !newPublicIp) return;
    this.egressFamily = ModemProxy.family(address);
    this.egressAddress = address;
    this.destroyAgents(); // in-flight plain requests on the old address end with them
    for (const conn of this.conns) {
      if (conn.upstream !== null) conn.socket.destroy();
      // A UDP association has no connection to lose: its next datagrams leave from the new address.
      conn.udp?.renewEgress();
    }
  }

  /** From now until endRotation, new connections wait (up to rotationWaitMs) instead of leaving from an old IP. */
  beginRotation(): void {
    this.rotating = true;
  }

  endRotation(): void {
    this.rotating = false;
    this.releaseWaiters(true);
  }

  /**
   * Graceful stop (SIGTERM): the listeners close and a stream from a gateway link is refused, while the connections
   * already open go on until they end by themselves or `ms` has passed; close() then ends what is left. Resolves when
   * the last one ended or at the deadline, whichever comes first.
   */
  async drain(ms: number): Promise<void> {
    if (this.state !== 'listening') return;
    this.state = 'draining';
    const closing = Promise.all([closeServer(this.httpServer), closeServer(this.socksServer)]);
    // A keep-alive HTTP client between two requests is not in flight: its connection is closed as soon as it is idle.
    const reap = setInterval(() => this.httpServer.closeIdleConnections(), 100);
    this.httpServer.closeIdleConnections();
    const deadline = Date.now() + ms;
    try {
      while (this.conns.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, Math.min(50, deadline - Date.now())));
    } finally {
      clearInterval(reap);
    }
    await Promise.race([closing, new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())))]);
  }

  /** Closes both listeners and every connection; leaves no timer, socket or listener behind. */
  async close(): Promise<void> {
    const wasOpen = this.state;
    this.state = 'closed';
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    this.rotating = false;
    this.releaseWaiters(false);
    this.rates.close();
    if (this.kernelSweep !== null) clearInterval(this.kernelSweep);
    this.kernelSweep = null;
    const closing: Promise<unknown>[] = [];
    for (const conn of this.conns) {
      // The server's close callback can come before a socket's own 'close'; wait for those too, so that
      // connectionCount is 0 and the meter has every byte once close() resolves.
      closing.push(new Promise((resolve) => conn.socket.once('close', resolve)));
      conn.socket.destroy();
    }
    this.destroyAgents();
    if (wasOpen !== 'new') closing.push(closeServer(this.httpServer), closeServer(this.socksServer));
    await Promise.all(closing);
    this.connectDeadlines.clear(); // its connections closed with their clients; its timer goes too
  }

  /**
   * A customer connection that reached this modem's HTTP or SOCKS5 port at the gateway and came over the link
   * (link/link-socket.ts): handled by the same front end as a connection to the listener.
   */
  acceptStream(socket: Duplex, kind: 'http' | 'socks', portId?: string): void {
    if (portId !== undefined) (socket as Duplex & { [kListener]?: string })[kListener] = portId;
    (kind === 'http' ? this.httpServer : this.socksServer).emit('connection', socket);
  }

  // ProxyCore: used by the protocol front ends.

  accept(socket: Socket, kind: ClientConnection['kind']): ClientConnection {
    const conn = new ClientConnection(socket, this);
    conn.kind = kind;
    conn.listenerPortId = (socket as TrackedSocket)[kListener] ?? null;
    (socket as TrackedSocket)[kConn] = conn;
    this.conns.add(conn);
    this.counters.accepted[kind]++;
    socket.on('error', ignore); // resets and timeouts are normal; 'close' does the cleanup
    socket.on('close', onClientClose);
    if (this.state === 'closed' || this.state === 'draining') {
      this.counters.refuse('stopping');
      socket.destroy();
    }
    return conn;
  }

  /**
   * Open client connections by port id ('' while not yet admitted to one) and kind, added into `into` under the key
   * `${portId}\n${kind}` (for the metrics, when scraped). A SOCKS connection that holds a UDP association counts as udp.
   */
  countOpen(into: Map<string, number>): void {
    for (const conn of this.conns) {
      const key = `${conn.portId ?? ''}\n${conn.udp !== null ? 'udp' : conn.kind}`;
      into.set(key, (into.get(key) ?? 0) + 1);
    }
  }

  /** Called on the client socket's 'close'. */
  release(conn: ClientConnection): void {
    if (!this.conns.delete(conn)) return;
    if (conn.portId !== null) {
      this.byPort.get(conn.portId)?.delete(conn);
      this.options.meter.untrack(conn);
    }
    conn.upstream?.destroy();
    conn.udp?.close();
  }

  identify(conn: ClientConnection, login: string | null, password: string | null): Identity {
    // Credentials offered are the whole answer: wrong ones are refused, never made good by a whitelisted address
    // (issue 26: a whole-internet whitelist turned wrong passwords into an open proxy).
    if (login !== null) {
      conn.viaLogin = true;
      conn.entry = null;
      if (!this.guard.allows(conn, login)) {
        this.counters.refuse('auth_blocked');
        return 'blocked';
      }
      const entry = this.table.authenticate(login, password ?? '');
      if (entry === undefined) {
        this.counters.refuse('auth');
        this.guard.failed(conn.remoteAddress, login);
        return 'refused';
      }
      // Right credentials at another port's address (decision 045): refused, but not a guess to count against them.
      if (!this.servedHere(conn, entry)) {
        this.counters.refuse('auth');
        return 'refused';
      }
      conn.entry = entry;
      return 'ok';
    }
    conn.viaLogin = false;
    conn.entry = this.whitelistedEntry(conn) ?? null;
    if (conn.entry === null) this.counters.refuse('whitelist');
    return conn.entry !== null ? 'ok' : 'refused';
  }

  /**
   * Whether a connection may speak for this port (decision 045): a port's own listener reaches only that port; the
   * modem's listener only the ports without listeners of their own (all of them, from a server before 045).
   */
  private servedHere(conn: ClientConnection, entry: PortEntry): boolean {
    return conn.listenerPortId !== null ? entry.access.id === conn.listenerPortId : entry.access.listen === undefined;
  }

  /** The port whose whitelist holds the connection's address, among those it may reach; undefined: none (or several). */
  private whitelistedEntry(conn: ClientConnection): PortEntry | undefined {
    if (conn.listenerPortId !== null) {
      const entry = this.table.get(conn.listenerPortId);
      return entry !== undefined && this.table.whitelists(entry, conn.remoteAddress) ? entry : undefined;
    }
    const entry = this.table.forClient(conn.remoteAddress);
    return entry === undefined || entry === AMBIGUOUS || !this.servedHere(conn, entry) ? undefined : entry;
  }

  admit(conn: ClientConnection): Admission {
    const entry = conn.entry!;
    const now = this.now();
    if (!isPortOpen(entry, now)) {
      this.counters.refuse(closedReason(entry, now));
      return 'inactive';
    }
    const portId = entry.access.id;
    if (conn.portId === portId) return 'ok';
    let set = this.byPort.get(portId);
    if (set === undefined) this.byPort.set(portId, (set = new Set()));
    if (set.size >= (entry.access.limits?.maxConnections ?? this.limits.maxConnectionsPerPort)) {
      this.counters.refuse('connection_limit');
      return 'limit';
    }
    const meter = this.options.meter;
    if (conn.portId === null) {
      conn.portId = portId;
      meter.track(conn);
    } else {
      // A keep-alive HTTP connection now speaking for another port: what it moved so far was the old port's.
      meter.flush(conn);
      this.byPort.get(conn.portId)?.delete(conn);
      conn.portId = portId;
    }
    set.add(conn);
    bindClient(conn.socket, this.rates.get(portId));
    return 'ok';
  }

  async resolveTarget(conn: ClientConnection, host: string, port: number): Promise<string> {
    if (this.rotating && !(await this.waitForRotation())) {
      throw new UpstreamError('rotating', 'The modem is still changing its IP address');
    }
    if (conn.socket.destroyed || this.state === 'closed') throw new UpstreamError('failed', 'closed');
    const resolution = await this.options.policy.resolve(host, this.egressFamily, port);
    if (!resolution.ok) throw new UpstreamError(resolution.reason);
    return resolution.address;
  }

  connectTarget(conn: ClientConnection, host: string, port: number): Promise<Socket> {
    // The usual tunnel (an address, not rotating, the port's preset set up if it has one) is dialed at once: one
    // promise, where the general path's awaits cost three more promises and their turns of the microtask queue.
    const preset = presetOf(conn.entry?.access);
    if (!this.rotating && this.state !== 'closed' && (preset === null || this.options.fingerprint?.ready(preset, this.egressAddress) === true)) {
      const resolution = this.options.policy.resolveNow(host, this.egressFamily, port);
      if (resolution !== null) {
        if (!resolution.ok) return Promise.reject(new UpstreamError(resolution.reason));
        if (conn.socket.destroyed) return Promise.reject(new UpstreamError('failed', 'client gone'));
        const address = resolution.address;
        return new Promise((resolve, reject) => dial(new Settle(resolve, reject, this, conn, address, port, preset)));
      }
    }
    return this.connectResolving(conn, host, port);
  }

  /** connectTarget for a name, a port whose preset is still being set up, or while rotating. */
  private async connectResolving(conn: ClientConnection, host: string, port: number): Promise<Socket> {
    const preset = presetOf(conn.entry?.access);
    if (preset !== null) await this.presetReady(preset); // refused before anything is resolved or sent
    const address = await this.resolveTarget(conn, host, port);
    if (conn.socket.destroyed) throw new UpstreamError('failed', 'client gone');
    return new Promise((resolve, reject) => dial(new Settle(resolve, reject, this, conn, address, port, preset)));
  }

  /** Throws the refusal of a port whose preset cannot be applied now (fail closed: no native SYN, no native TTL). */
  private presetProblem(preset: Preset): void {
    const fingerprint = this.options.fingerprint;
    const problem = fingerprint ? fingerprint.problem(preset) : 'This host cannot apply OS fingerprint presets.';
    if (problem !== null) throw new UpstreamError('fingerprint', problem);
  }

  /** The preset's setup on this modem's egress, waited for; its refusal as an UpstreamError. */
  private async presetReady(preset: Preset): Promise<void> {
    this.presetProblem(preset);
    try {
      await this.options.fingerprint!.whenReady(preset, this.egressAddress);
    } catch (err) {
      throw err instanceof FingerprintUnavailable ? new UpstreamError('fingerprint', err.message) : err;
    }
  }

  /** An unconnected target socket of the port's preset on this modem's egress, reading into reused buffers (dial()). */
  presetSocket(preset: Preset): Socket {
    if (!this.options.fingerprint) throw new FingerprintUnavailable('This host cannot apply OS fingerprint presets.');
    const socket = this.options.fingerprint.socket(preset, this.egressAddress, TARGET_READS);
    socket.allowHalfOpen = true;
    return socket;
  }

  /** The TTL a port's UDP datagrams leave with (its preset's), or null for the kernel's own. */
  datagramTtl(portId: string): number | null {
    const preset = presetOf(this.table.get(portId)?.access);
    return preset === null || !this.options.fingerprint ? null : this.options.fingerprint.datagramTtl(preset);
  }

  async associateUdp(conn: ClientConnection): Promise<RelayAddress> {
    const preset = presetOf(conn.entry?.access);
    if (preset !== null && !this.options.fingerprint) this.presetProblem(preset);
    let channel: ClientDatagramChannel;
    // A client that reached us through a gateway sends its datagrams to the gateway, which carries them over the link.
    // Otherwise the relay listens where the client reached us, for the client's address only (the TCP connection's ends).
    const throughLink = (conn.socket as { openDatagramChannel?: (() => Promise<ClientDatagramChannel>) | null }).openDatagramChannel;
    const local = conn.socket.localAddress;
    const client = conn.remoteAddress;
    if (!throughLink && (local === undefined || client === undefined)) throw new UpstreamError('failed', 'client gone');
    try {
      channel = throughLink ? await throughLink() : await DirectClientChannel.open(local!, client!);
    } catch (err) {
      throw new UpstreamError('failed', `no UDP relay: ${String(err)}`);
    }
    if (conn.socket.destroyed || this.state === 'closed') {
      channel.close();
      throw new UpstreamError('failed', 'client gone');
    }
    const socket = conn.socket;
    this.counters.accepted.udp++;
    conn.udp = new UdpAssociation(channel, this, conn.portId!, this.options.meter, () => socket.destroy(), this.rates.get(conn.portId!));
    return channel.replyAddress;
  }

  /** For UDP associations: a datagram's target checked as a CONNECT target is; null drops it (also while rotating). */
  async resolveDatagramTarget(host: string, port: number): Promise<string | null> {
    if (this.rotating || this.state === 'closed') return null; // UDP may lose it; no datagram waits for a new IP
    const resolution = await this.options.policy.resolve(host, this.egressFamily, port);
    return resolution.ok ? resolution.address : null;
  }

  // Internals.

  /** A port's pool of kept target connections for plain HTTP, dialed from the egress (with the port's preset). */
  private createPool(preset: Preset | null): UpstreamPool {
    return new UpstreamPool((address, port, done) => {
      // Plain requests' connections count as carried too (carried()).
      if (preset === null) {
        // Written to at once: the request waits in the socket until it connects; a failure comes as its 'error'.
        const socket = connect({ host: address, port, localAddress: this.egressAddress });
        socket.once('connect', () => this.countUpstream(socket));
        done(null, socket);
        return;
      }
      // The pool of a port with a preset: its preset's sockets (emitting 'data', which the pool's readers take), once
      // the preset is set up on this egress.
      this.presetReady(preset).then(() => {
        const socket = this.options.fingerprint!.socket(preset, this.egressAddress).connect({ host: address, port });
        socket.once('connect', () => this.countUpstream(socket));
        done(null, socket);
      }).catch((err: Error) => done(err instanceof FingerprintUnavailable ? new UpstreamError('fingerprint', err.message) : err));
    });
  }

  private waitForRotation(): Promise<boolean> {
    return new Promise((done) => {
      const waiter: RotationWaiter = {
        done,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          done(false);
        }, this.limits.rotationWaitMs),
      };
      this.waiters.add(waiter);
    });
  }

  private releaseWaiters(ok: boolean): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.done(ok);
    }
    this.waiters.clear();
  }

  /** Cuts connections of ports that expired (by the agent's clock) or are no longer in the table. */
  private sweep(): void {
    const now = this.now();
    for (const [portId, set] of this.byPort) {
      if (set.size === 0) {
        this.byPort.delete(portId);
        continue;
      }
      const entry = this.table.get(portId);
      if (entry === undefined || !isPortOpen(entry, now)) for (const conn of set) conn.socket.destroy();
    }
  }
}

function listen(server: NetServer, host: string, port: number, what: string, imei: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.removeListener('listening', onListening);
      const why = err.code === 'EADDRINUSE' ? 'is already in use' : `cannot be opened (${err.code ?? err.message})`;
      reject(new Error(`${what} port ${port} on ${host} for modem ${imei} ${why}`));
    };
    const onListening = () => {
      server.removeListener('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port });
  });
}

function closeServer(server: NetServer): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) resolve();
    else server.close(() => resolve());
  });
}
