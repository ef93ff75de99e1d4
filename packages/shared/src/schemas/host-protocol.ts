import * as z from 'zod/mini';
import { fingerprintPresetIdSchema } from '../fingerprint-presets.js';
import { desiredGatewaySchema, gatewayLinkReportSchema } from './gateway-protocol.js';

// The server–agent host protocol (issue 11, docs/decisions/016-host-protocol.md). The agent on each modem host
// keeps one socket.io connection to the server at HOST_PROTOCOL.path, authenticated by the host's key
// (`auth: { key }`). Events:
//
//   server → agent  'state'            DesiredState, the whole of it: on connect and after every change
//   server → agent  'rotate'           RotateCommand, acknowledged with a RotateReply when the modem has its new IP
//   agent → server  'rotation-status'  RotationStatus, while a rotation is under way
//   agent → server  'heartbeat'        Heartbeat, at once on connecting and then every HOST_PROTOCOL.heartbeatSeconds,
//                                      acknowledged with {ok} (the server marks modems online from it)
//   agent → server  'traffic'          TrafficReport, acknowledged with a TrafficAck; a batch id is counted once
//   agent → server  'gateway-ticket'   GatewayTicketRequest (its link key) acknowledged with a GatewayTicketReply, for
//                                      a host behind a gateway (gateway-protocol.ts)
//
// Byte counts are decimal strings (they exceed 2^53 over time). bytesIn is what the customer received (download),
// bytesOut what the customer sent (upload), both counted on the customer's side of the proxy.

export const HOST_PROTOCOL = {
  /** socket.io path on the server's own origin. */
  path: '/api/v1/agent/socket',
  version: 1,
  heartbeatSeconds: 10,
  /** A host silent for this long is offline, with its modems. */
  offlineAfterSeconds: 60,
  /** Traffic samples are per port and aligned to this many minutes. */
  trafficIntervalMinutes: 5,
  /** Samples per traffic report. */
  trafficBatchMax: 1000,
  /**
   * The most bytes one sample may count in each direction: 100 Gbit/s for a whole interval, far above any modem.
   * A larger count is refused on its own (the rest of its report is taken), and a report's sums stay far from
   * PostgreSQL's bigint limit.
   */
  trafficSampleMaxBytes: 100e9 / 8 * 5 * 60,
  /** How long the server waits for an agent to answer a rotation. */
  rotateTimeoutSeconds: 60,
} as const;

/**
 * The server's own speed-test target (issue 27, item 8), answered only to a host key (`Authorization: Bearer chk_…`):
 * `GET {path}?bytes=N` sends N bytes (0 for the latency probe), `POST {path}` reads and counts the body. Both bounded
 * by maxBytes, so a test costs the server at most that much each way.
 */
export const SPEED_TEST = {
  path: '/api/v1/agent/speedtest',
  maxBytes: 8 * 1024 * 1024,
} as const;

/** The error a refused handshake carries (socket.io `connect_error` message). */
export const HOST_KEY_REFUSED = 'HOST_KEY_INVALID';

const byteCount = z.string().check(z.regex(/^\d{1,20}$/, 'Byte counts are decimal strings of digits'));
const isoDate = z.iso.datetime({ offset: true });
const id = z.string().check(z.minLength(1), z.maxLength(64));
const imei = z.string().check(z.minLength(1), z.maxLength(32));
const tcpPort = z.number().check(z.int(), z.minimum(1), z.maximum(65535));

/** Why a port may or may not carry traffic. Only 'active' (and before expiresAt) lets connections through. */
export const PORT_ACCESS_STATES = ['active', 'expired', 'suspended', 'deactivated'] as const;
export type PortAccessState = (typeof PORT_ACCESS_STATES)[number];

/**
 * A port's limits (issue 18, item 3; docs/decisions/030-per-port-limits.md), from its tariff and its traffic this
 * month. The agent caps each direction of the port (all its connections together) at the lower of the bandwidth and
 * a throttled quota's rate, and refuses connections past maxConnections. A quota state other than 'ok' holds until
 * `until` (the next calendar month, UTC) by the agent's own clock: the quota resets then without a word from the server.
 */
export const portLimitsSchema = z.object({
  /** Each direction's cap in bytes per second; null: none. */
  bandwidthBytesPerSecond: z.nullable(z.number().check(z.int(), z.minimum(1))),
  /** Concurrent connections of the port, HTTP and SOCKS5 together. */
  maxConnections: z.number().check(z.int(), z.minimum(1)),
  quota: z.union([
    z.object({ state: z.literal('ok') }),
    z.object({ state: z.literal('throttled'), bytesPerSecond: z.number().check(z.int(), z.minimum(1)), until: isoDate }),
    z.object({ state: z.literal('blocked'), until: isoDate }),
  ]),
});
export type PortLimits = z.infer<typeof portLimitsSchema>;

/**
 * The customer's own listening ports (issue 28, item 10; decision 045): they belong to the port, not to its modem, so
 * a move to another modem keeps them. Absent (an older server, or a shared port sold before decision 045 that has not
 * moved since): the port is served on its modem's httpPort/socksPort.
 */
export const portListenSchema = z.object({ httpPort: tcpPort, socksPort: tcpPort });
export type PortListen = z.infer<typeof portListenSchema>;

export const portAccessSchema = z.object({
  id,
  login: z.string().check(z.minLength(1), z.maxLength(64)),
  password: z.string().check(z.minLength(1), z.maxLength(64)),
  /** IPv4/IPv6 addresses and CIDR ranges whose connections need no credentials. */
  whitelist: z.array(z.string().check(z.maxLength(64))),
  state: z.enum(PORT_ACCESS_STATES),
  /** The agent refuses the port from this moment by its own clock, even while the server is unreachable. */
  expiresAt: isoDate,
  /** Absent from older servers: the agent's defaults (200 connections, no cap, no quota). */
  limits: z.optional(portLimitsSchema),
  /** The OS fingerprint preset of the port's new connections (issue 30); absent: native. */
  fingerprint: z.optional(fingerprintPresetIdSchema),
  /** Decision 045: the port's own HTTP and SOCKS5 listeners, routed to whichever modem lists it. */
  listen: z.optional(portListenSchema),
  /**
   * The server's digest of the port's settings (this entry and its modem's numbers); the agent reports it back for
   * each port it serves (Heartbeat.ports), so "what a site sees" waits for its own port only (issue 30), not for a
   * neighbour's change on the same host. Absent from older servers.
   */
  digest: z.optional(z.string().check(z.maxLength(32))),
});
export type PortAccess = z.infer<typeof portAccessSchema>;

export const MODEM_DRIVERS = ['simulated', 'hilink', 'modemmanager'] as const;

export const desiredModemSchema = z.object({
  id,
  imei,
  httpPort: tcpPort,
  socksPort: tcpPort,
  /** The address the server last knew; a simulated modem sends from it (127.0.x.y in the demo). */
  extIp: z.string().check(z.maxLength(64)),
  driver: z.enum(MODEM_DRIVERS),
  isShared: z.boolean(),
  /** Ports that are not released, whatever their state: a refused login answers 403, an unknown one 407. */
  ports: z.array(portAccessSchema),
});
export type DesiredModem = z.infer<typeof desiredModemSchema>;

export const desiredStateSchema = z.object({
  /** Changes whenever anything below changes; the agent ignores a state with the version it already has. */
  version: z.string(),
  hostId: id,
  hostName: z.string(),
  generatedAt: isoDate,
  modems: z.array(desiredModemSchema),
  /** Behind a gateway (issue 18): the agent serves the ports through its link and listens on none itself. */
  gateway: z.optional(desiredGatewaySchema),
  /**
   * Decision 045: this server gives ports their own listeners (`PortAccess.listen`). A modem then opens its own
   * httpPort/socksPort only for its ports without `listen`; absent (an older server): every modem listens as before.
   */
  portListeners: z.optional(z.literal(true)),
});
export type DesiredState = z.infer<typeof desiredStateSchema>;

export const rotateCommandSchema = z.object({ commandId: id, imei });
export type RotateCommand = z.infer<typeof rotateCommandSchema>;
/** Why a rotation failed, when the agent can tell: `ip_collision`, the modem came back with the same IP every time. */
export const ROTATE_FAILURE_CODES = ['ip_collision'] as const;
export const rotateReplySchema = z.union([
  z.object({ ok: z.literal(true), extIp: z.string() }),
  z.object({ ok: z.literal(false), error: z.string(), code: z.optional(z.enum(ROTATE_FAILURE_CODES)) }),
]);
export type RotateReply = z.infer<typeof rotateReplySchema>;
export const rotationStatusSchema = z.object({ commandId: id, imei, status: z.enum(['rotating', 'applying']) });
export type RotationStatus = z.infer<typeof rotationStatusSchema>;

export const MODEM_RUN_STATES = ['online', 'offline', 'rotating'] as const;
/**
 * A modem's health as the agent's checks find it (issue 15): online (its management API answers, it is connected and
 * a request through it succeeds), degraded (traffic flows but something is off, or one check failed), offline (no
 * request gets through). The run state says 'offline' too while the health is offline, so the server treats it so.
 */
export const MODEM_HEALTH_STATES = ['online', 'degraded', 'offline'] as const;
export type ModemHealthState = (typeof MODEM_HEALTH_STATES)[number];
export const modemHealthSchema = z.object({
  state: z.enum(MODEM_HEALTH_STATES),
  /** Why it is degraded or offline (for operators; English, as the agent logs it). */
  reason: z.optional(z.string().check(z.maxLength(300))),
  /** When the health last changed state, by the agent's clock. */
  since: z.optional(isoDate),
});
export type ModemHealth = z.infer<typeof modemHealthSchema>;

const shortText = z.optional(z.string().check(z.maxLength(100)));
const dB = z.optional(z.number().check(z.minimum(-300), z.maximum(300)));
/**
 * A modem of the host's modems file (AGENT_MODEMS) as the agent read it from the device at start and since: every
 * configured modem, whether the server knows its IMEI or not (one it does not know is "new on this host").
 */
export const hostModemInfoSchema = z.object({
  imei,
  driver: z.enum(MODEM_DRIVERS),
  /** The entry's name in the modems file, if it has one. */
  name: shortText,
  manufacturer: shortText,
  model: shortText,
  firmware: shortText,
  operator: shortText,
  /** 2G, 3G, 4G, 4G+ or 5G. */
  networkType: z.optional(z.string().check(z.maxLength(10))),
  /** dBm / dB as the device reports them; quality is ModemManager's 0–100 %. */
  signal: z.optional(z.object({ rssi: dB, rsrp: dB, rsrq: dB, sinr: dB, quality: dB })),
  connection: z.optional(z.enum(['connected', 'connecting', 'disconnected', 'disconnecting', 'unknown'])),
  /** The public IP measured through the modem (an IP-echo request), when it could be. */
  extIp: z.optional(z.string().check(z.maxLength(64))),
  /** Rotations since the agent started: how many, how many gave a new IP, how many ended in a collision, the last one's time. */
  rotations: z.optional(z.object({
    total: z.number().check(z.int(), z.minimum(0)),
    succeeded: z.number().check(z.int(), z.minimum(0)),
    collisions: z.number().check(z.int(), z.minimum(0)),
    lastMs: z.optional(z.number().check(z.minimum(0))),
  })),
  /** What is wrong with the modem (its API does not answer, its interface has no address), for the console. */
  problem: z.optional(z.string().check(z.maxLength(300))),
});
export type HostModemInfo = z.infer<typeof hostModemInfoSchema>;
/**
 * A host's fingerprint capability (issue 30). `supported: false` (not root, no tc or compiler) says why in `reason`; the
 * dashboard then offers no presets for its ports. `failing` lists ports whose preset could not be applied: they refuse
 * new connections (fail closed) until it can, and the customer and operator see the reason.
 */
export const hostFingerprintReportSchema = z.object({
  supported: z.boolean(),
  reason: z.optional(z.string().check(z.maxLength(300))),
  failing: z.optional(z.array(z.object({ portId: id, reason: z.string().check(z.maxLength(300)) })).check(z.maxLength(2000))),
});
export type HostFingerprintReport = z.infer<typeof hostFingerprintReportSchema>;
/** Said of a host whose agent never reported presets (an agent older than issue 30): this contract reads it as "cannot". */
export const HOST_NEVER_REPORTED = 'the host\'s agent has not reported fingerprint presets (it may be older than this feature)';

/** A host's capability as its last heartbeat reported it; null (never reported) is "cannot" (the server reads a host's last report with it). */
export function hostCapability(report: HostFingerprintReport | null): { available: boolean; reason: string | null } {
  if (!report) return { available: false, reason: HOST_NEVER_REPORTED };
  return report.supported ? { available: true, reason: null } : { available: false, reason: report.reason ?? null };
}

/**
 * What a modem's last bounded speed test measured (issue 27, item 8; apps/agent README, "Speed tests"): the round trip
 * of a small request and the download and upload rates through the modem's egress to the speed-test target, and
 * whether a UDP datagram got an answer through it (what its ports' SOCKS5 UDP ASSOCIATE rides on). Absent from agents
 * that do not test (older ones, AGENT_SPEEDTEST_INTERVAL_MINUTES=0) and before a modem's first test.
 */
export const modemQualitySchema = z.object({
  latencyMs: z.number().check(z.minimum(0), z.maximum(600_000)),
  downMbps: z.number().check(z.minimum(0), z.maximum(100_000)),
  upMbps: z.number().check(z.minimum(0), z.maximum(100_000)),
  /** null: not checked (no UDP target). */
  udp: z.nullable(z.boolean()),
  /** When it was measured, by the agent's clock. */
  at: isoDate,
});
export type ModemQuality = z.infer<typeof modemQualitySchema>;

export const heartbeatSchema = z.object({
  agentVersion: z.string().check(z.maxLength(40)),
  uptimeSeconds: z.number().check(z.minimum(0)),
  /** The desired-state version the agent serves (applied whole). */
  stateVersion: z.nullable(z.string()),
  /**
   * Each port of that state with its digest (PortAccess.digest), as [portId, digest]: what each port serves. Absent
   * from older agents (the server then waits for the whole state's version).
   */
  ports: z.optional(z.array(z.tuple([id, z.string().check(z.maxLength(32))])).check(z.maxLength(10_000))),
  modems: z.array(z.object({
    imei,
    state: z.enum(MODEM_RUN_STATES),
    extIp: z.string().check(z.maxLength(64)),
    connections: z.number().check(z.int(), z.minimum(0)),
    /** Why the modem is offline (a port already taken, a driver error), for the console. */
    problem: z.optional(z.string().check(z.maxLength(300))),
    /** The health checks' verdict; absent from agents that do not check (older ones, the demo's simulated modems). */
    health: z.optional(modemHealthSchema),
    /** The last speed test's results; the server keeps a rolling median of them for the catalog. */
    quality: z.optional(modemQualitySchema),
  })),
  /** Only from an agent with a modems file (AGENT_MODEMS): every modem configured on the host and what it reports. */
  inventory: z.optional(z.array(hostModemInfoSchema).check(z.maxLength(500))),
  /** Only from the agent of a host behind a gateway: its link. */
  gatewayLink: z.optional(gatewayLinkReportSchema),
  /** Whether the host can apply fingerprint presets (issue 30); absent from older agents: it cannot. */
  fingerprint: z.optional(hostFingerprintReportSchema),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;

export const trafficReportSchema = z.object({
  batchId: z.uuid(),
  samples: z.array(z.object({
    portId: id,
    intervalStart: isoDate,
    bytesIn: byteCount,
    bytesOut: byteCount,
  })).check(z.minLength(1), z.maxLength(HOST_PROTOCOL.trafficBatchMax)),
});
export type TrafficReport = z.infer<typeof trafficReportSchema>;
/**
 * `duplicate` is true when the batch id was already counted (a resend): the agent drops it either way. `refused`
 * counts the samples not taken (a port not on this host's modems or not held in that interval, an interval too old,
 * misaligned or ahead, a count too large): sending them again would not help, so they are dropped with the batch.
 */
export const trafficAckSchema = z.object({ batchId: z.uuid(), accepted: z.number(), duplicate: z.boolean(), refused: z.optional(z.number()) });
export type TrafficAck = z.infer<typeof trafficAckSchema>;

/**
 * What an acknowledgement carries when the server does not take a message. `retry` is true when the server failed
 * (a database error): the agent keeps the message and sends it again later. Without it the message itself is
 * refused (it does not match the schema, or a traffic sample is misaligned, in the future or too large) and sending
 * it again would not help: the agent drops it and logs the error.
 */
export const agentErrorSchema = z.object({ error: z.string(), retry: z.optional(z.boolean()) });
export type AgentError = z.infer<typeof agentErrorSchema>;
