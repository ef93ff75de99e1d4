import * as z from 'zod/mini';
import { text } from '../text.js';
import { isoDate, trimmedText, uuid } from './common.js';
import { hostGatewayLinkSchema, hostGatewaySchema } from './gateways.js';

// Operator console, Inventory: hosts. Conventions and building blocks: common.ts.

// ---- inventory: hosts ---------------------------------------------------------------------------------------------

/** A modem as its host's agent last reported it (issue 11). */
export const hostModemSchema = z.object({
  id: uuid,
  imei: text(),
  httpPort: z.number(),
  socksPort: z.number(),
  extIp: text(),
  online: z.boolean(),
  retired: z.boolean(),
  /** Open proxy connections at the last heartbeat. */
  connections: z.number(),
  /** Why the agent cannot serve this modem (a listening port taken, a driver error); null when fine. */
  problem: z.nullable(text()),
});
/**
 * GET /admin/hosts — each host with its agent's last contact. `online`: a heartbeat within
 * HOST_PROTOCOL.offlineAfterSeconds (60 s) by the server's clock; lastSeenAt null = the agent never connected.
 * agentStartedAt: when the running agent started (its uptime), null until it reports.
 */
export const hostSchema = z.object({
  id: uuid,
  name: text(),
  address: text(),
  modemCount: z.number(),
  /** Whether a host key was issued (the key itself is shown once, at issue). */
  hasKey: z.boolean(),
  lastSeenAt: z.nullable(isoDate),
  online: z.boolean(),
  agentVersion: z.nullable(text()),
  agentStartedAt: z.nullable(isoDate),
  /** Its modems by IMEI, retired ones included (flagged). */
  modems: z.array(hostModemSchema),
  /** The gateway customers reach it through (issue 18); null: direct, at its address. */
  gateway: z.nullable(hostGatewaySchema),
  /** Its agent's last report of the link to that gateway; null while direct or before the agent reported one. */
  gatewayLink: z.nullable(hostGatewayLinkSchema),
  /** Why its agent cannot apply OS fingerprint presets (its heartbeat's words, issue 30); null when it can. */
  fingerprintUnavailable: z.nullable(text()),
});
/** `now`: the server's clock when it answered, so the console shows "12 s ago" without trusting the browser's clock. */
export const hostsResponseSchema = z.object({ items: z.array(hostSchema), now: isoDate });
export const hostRequestSchema = z.object({ name: trimmedText(100), address: trimmedText(255) });
/**
 * PATCH /admin/hosts/:id. `gatewayId`: pin the host to a gateway (null: direct again). Refused with
 * GATEWAY_PORT_CONFLICT while one of its modems' ports is a port of another host pinned to that gateway, which
 * listens on the same port numbers for every host it relays.
 */
export const hostPatchRequestSchema = z.extend(z.partial(hostRequestSchema), { gatewayId: z.optional(z.nullable(uuid)) });
export const hostResponseSchema = z.object({ host: hostSchema });
export type Host = z.infer<typeof hostSchema>;
export type HostsResponse = z.infer<typeof hostsResponseSchema>;
export type HostRequest = z.input<typeof hostRequestSchema>;
export type HostPatchRequest = z.input<typeof hostPatchRequestSchema>;
export type HostResponse = z.infer<typeof hostResponseSchema>;
export type HostModem = z.infer<typeof hostModemSchema>;
/**
 * POST /admin/hosts/:id/key — a new key for the host's agent (CELLPORT_HOST_KEY), returned only here: the server keeps
 * its hash. The previous key stops working at once.
 */
export const hostKeyResponseSchema = z.object({ key: text() });
/** Where the console and `npm run admin -- host-key` suggest a stand-alone agent keeps its state. */
export const AGENT_DATA_DIR_EXAMPLE = '/var/lib/cellport-agent';
/** The settings a stand-alone agent needs (apps/agent), as the console and the CLI print them, one per line. */
export const agentEnvLines = (serverUrl: string, key: string, dataDir: string = AGENT_DATA_DIR_EXAMPLE): string[] => [
  `CELLPORT_SERVER_URL=${serverUrl}`, `CELLPORT_HOST_KEY=${key}`, `AGENT_DATA_DIR=${dataDir}`,
];
export type HostKeyResponse = z.infer<typeof hostKeyResponseSchema>;
