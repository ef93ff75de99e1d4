import type { Socket } from 'node:net';
import type { PortEntry } from './port-access.js';
import type { ConnectionKind, ProxyCounters } from './proxy-counters.js';
import type { ByteCounts, MeteredConnection } from './traffic-meter.js';
import type { UdpAssociation } from './udp-association.js';
import type { UpstreamPool } from './upstream-pool.js';
import type { RelayAddress } from './udp-client-channel.js';
import type { Logger, ProxyLimits, UpstreamFailure } from './types.js';

// What the two protocol front ends (http-proxy.ts, socks5-proxy.ts) share with the modem they serve (modem-proxy.ts):
// one record per client connection, and the small interface through which a front end asks its modem who a client
// is, whether it may connect now, and for an upstream socket. Handlers are module-level functions that find their
// record through a symbol on the socket, so a connection costs one record and no closures while it is idle.

export const kConn = Symbol('cellport.conn');

/** Set on a client socket taken by a port's own listener (port-listeners.ts): the id of the only port it may reach. */
export const kListener = Symbol('cellport.listener');

export type TrackedSocket = Socket & { [kConn]?: ClientConnection; [kListener]?: string };

/** The SOCKS5 handshake's progress (unused by HTTP connections). */
export const SOCKS_GREETING = 0;
export const SOCKS_AUTH = 1;
export const SOCKS_REQUEST = 2;
export const SOCKS_CONNECTING = 3;

export class ClientConnection implements MeteredConnection {
  /** The port this connection is admitted to and counted for (null until admitted). */
  portId: string | null = null;
  /**
   * The port whose own listener took it (decision 045): only that port may be reached through it. Null: the modem's
   * listener, which serves only ports without listeners of their own.
   */
  listenerPortId: string | null = null;
  /** Which front end took it (a SOCKS connection holding a UDP association is told by its udp field). */
  kind: Exclude<ConnectionKind, 'udp'> = 'http';
  meteredRead = 0;
  meteredWritten = 0;
  /** Who the client is: the port its credentials or its whitelisted address name (null until identified). */
  entry: PortEntry | null = null;
  /** Identified by login and password (true) or by its whitelisted address (false). */
  viaLogin = false;
  /** The tunnel's target socket (CONNECT and SOCKS), set as soon as it starts connecting. */
  upstream: Socket | null = null;
  /** SOCKS UDP ASSOCIATE: the association this control connection holds open (closed with it). */
  udp: UdpAssociation | null = null;
  /** HTTP: the Proxy-Authorization header last accepted, so keep-alive requests skip re-checking the password. */
  authHeader: string | undefined = undefined;
  /** HTTP: wrong credentials offered on this connection so far (it is closed at MAX_FAILURES_PER_CONNECTION). */
  authFailures = 0;
  /**
   * SOCKS: handshake stage and bytes of an incomplete handshake message (or read past the request). HTTP: the first
   * request's bytes while it is not yet known to be a CONNECT or its head has not ended (http-proxy.ts onHeadData).
   */
  stage = SOCKS_GREETING;
  pending: Buffer | null = null;
  /** The client's address once read (undefined: not read yet). */
  private peer: string | null | undefined = undefined;
  /** Date.now() at accept: a SOCKS handshake must end within handshakeTimeoutMs of it, however slowly it trickles. */
  readonly acceptedAt = Date.now();

  constructor(readonly socket: TrackedSocket, readonly core: ProxyCore) {}

  /** A tunnel the kernel relays (kernel-tunnel.ts): its counts add the relay's bytes to the client socket's. */
  relayed: ByteCounts | null = null;

  /** The meter reads the client socket's own counters, or a kernel-relayed tunnel's (a getter: no field per connection). */
  get counts(): ByteCounts {
    return this.relayed ?? this.socket;
  }

  /**
   * The client's address, for the whitelist. Read on first use rather than at accept: it costs a getpeername() call,
   * and a client that logs in never needs it. A connection the whitelist identified read it while its socket was
   * open, so a rule change can still match it after a destroyed socket stopped reporting it.
   */
  get remoteAddress(): string | undefined {
    if (this.peer === undefined) this.peer = this.socket.remoteAddress ?? null;
    return this.peer ?? undefined;
  }
}

export type { UpstreamFailure };

export class UpstreamError extends Error {
  constructor(readonly failure: UpstreamFailure, message: string = failure) {
    super(message);
  }
}

export type Admission = 'ok' | 'inactive' | 'limit';

/** identify's answer: who the client is, or refused (no such port), or blocked (too many wrong passwords). */
export type Identity = 'ok' | 'refused' | 'blocked';

export interface ProxyCore {
  readonly limits: ProxyLimits;
  readonly log: Logger;
  /** The kept-alive target connections for plain HTTP forwarding of one port (never shared between ports). */
  forwardPool(portId: string): UpstreamPool;
  readonly egress: string;
  /** Running counts of connections and refusals, for the metrics. */
  readonly counters: ProxyCounters;
  /** Registers a new client socket (counted, closed by close(), metered once admitted). */
  accept(socket: Socket, kind: ClientConnection['kind']): ClientConnection;
  /**
   * Sets conn.entry from credentials (login not null: wrong ones are refused, whatever the client's address) or, with
   * login null, from the client's address on the whitelist of exactly one port (SOCKS offers no-authentication only
   * when that succeeds). Credentials from a client that guessed too often are not checked: 'blocked'. Anything but
   * 'ok' is counted as a refusal (auth, auth_blocked or whitelist): every caller refuses then.
   */
  identify(conn: ClientConnection, login: string | null, password: string | null): Identity;
  /** Whether the identified port may carry a connection now; binds the connection to it. A refusal is counted. */
  admit(conn: ClientConnection): Admission;
  /** Waits out a rotation, resolves and checks the target (its address and port); the address to connect to. */
  resolveTarget(conn: ClientConnection, host: string, port: number): Promise<string>;
  /** resolveTarget, then a TCP connection from the egress address (its idle timeout set). */
  connectTarget(conn: ClientConnection, host: string, port: number): Promise<Socket>;
  /**
   * Joins an established tunnel's client socket and target socket (the answer written, any bytes past the request
   * passed on): in the kernel when the modem has the relay and the port no bandwidth limit, else in JavaScript.
   */
  relayTunnel(conn: ClientConnection, upstream: Socket): void;
  /**
   * SOCKS UDP ASSOCIATE for an admitted connection: opens its UDP relay (conn.udp, closed when conn closes) and gives
   * the address the client must send its datagrams to. Rejects with an UpstreamError when the relay cannot be opened.
   */
  associateUdp(conn: ClientConnection): Promise<RelayAddress>;
}

export function ignore(): void {}

export function destroySelf(this: Socket): void {
  this.destroy();
}
