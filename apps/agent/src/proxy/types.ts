import type { PortAccess } from '@cellport/shared/schemas/host-protocol';

// The proxy core's boundary: what the host agent's runtime (src/runtime) hands to each modem's proxy and what it
// reads back. The runtime knows the server protocol; the proxy knows only sockets.

export type { PortAccess };

/** Minimal structured logger (the runtime passes pino-style JSON lines or a silent one in tests). */
export interface Logger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface ProxyLimits {
  /** Concurrent connections per customer port (both protocols together). */
  maxConnectionsPerPort: number;
  /** A connection with no bytes either way for this long is closed. */
  idleTimeoutMs: number;
  /** A client must finish its request headers / SOCKS handshake within this. */
  handshakeTimeoutMs: number;
  /** Connecting to a target gives up after this. */
  connectTimeoutMs: number;
  /** While the modem rotates, a new connection waits this long for it, then is refused. */
  rotationWaitMs: number;
  /** A SOCKS5 UDP association with no datagram either way for this long is closed (with its control connection). */
  udpIdleTimeoutMs: number;
}

/** One traffic figure: bytes a customer port moved in one aligned interval (HOST_PROTOCOL.trafficIntervalMinutes). */
export interface TrafficSample { portId: string; intervalStart: number; bytesIn: bigint; bytesOut: bigint }

/** Why no upstream connection was made; each front end maps it to its own answer (HTTP status, SOCKS reply). */
export type UpstreamFailure =
  | 'refused' // the target policy says no
  | 'unresolvable' // the name does not resolve
  | 'family' // an IPv6 target from an IPv4 egress or the reverse
  | 'unreachable' // no route
  | 'connection-refused' // the target answered with RST
  | 'timeout' // no connection within connectTimeoutMs (or no answer, for plain HTTP)
  | 'rotating' // the modem was still rotating after rotationWaitMs
  | 'fingerprint' // the port's OS fingerprint preset cannot be applied now: refused rather than sent native (issue 30)
  | 'failed'; // anything else (the egress address not bindable, the proxy closing)
