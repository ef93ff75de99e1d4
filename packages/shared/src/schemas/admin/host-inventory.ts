import * as z from 'zod/mini';
import { MODEM_DRIVERS, MODEM_HEALTH_STATES } from '../host-protocol.js';
import { text } from '../text.js';
import { hostModemSchema, hostSchema } from './hosts.js';

// Operator console, Inventory → Hosts (issue 15): what each host's agent reports of the modems in its modems file
// (the heartbeat's `inventory`), and adding a reported modem the inventory does not know yet. Same conventions as
// common.ts (camelCase, ISO dates, every route under /api/v1/admin, audited writes).

const uuid = z.uuid();
const isoDate = text();
const nullableNumber = z.nullable(z.number());

/** A modem as its host's agent last reported it: device facts, signal, measured IP and rotation figures. */
export const modemReportSchema = z.object({
  driver: z.enum(MODEM_DRIVERS),
  /** The entry's name in the host's modems file. */
  name: z.nullable(text()),
  manufacturer: z.nullable(text()),
  model: z.nullable(text()),
  firmware: z.nullable(text()),
  operator: z.nullable(text()),
  /** 2G, 3G, 4G, 4G+ or 5G. */
  networkType: z.nullable(text()),
  /** dBm / dB as the device reports them; quality is ModemManager's 0–100 %. */
  signal: z.nullable(z.object({ rssi: nullableNumber, rsrp: nullableNumber, rsrq: nullableNumber, sinr: nullableNumber, quality: nullableNumber })),
  connection: z.nullable(text()),
  /** The public IP the agent measured through the modem. */
  extIp: z.nullable(text()),
  /** Rotations since the agent started. */
  rotations: z.nullable(z.object({ total: z.number(), succeeded: z.number(), collisions: z.number(), lastMs: nullableNumber })),
  /** succeeded / total (0–1); null before the first rotation. */
  successRate: nullableNumber,
  problem: z.nullable(text()),
  /** When the report last changed. */
  changedAt: isoDate,
});
export type ModemReport = z.infer<typeof modemReportSchema>;

/**
 * A modem of the inventory on this host, with its agent's latest report (null: the agent reports none) and its health
 * as the agent's checks last found it: online, degraded or offline, why, and since when (null: never changed).
 */
export const reportedHostModemSchema = z.extend(hostModemSchema, {
  report: z.nullable(modemReportSchema),
  health: z.enum(MODEM_HEALTH_STATES),
  healthReason: z.nullable(text()),
  healthChangedAt: z.nullable(isoDate),
});
export type ReportedHostModem = z.infer<typeof reportedHostModemSchema>;

/** A modem the host reports that no modem of the inventory has the IMEI of: "new on host X". */
export const newHostModemSchema = z.extend(modemReportSchema, { imei: text(), firstSeenAt: isoDate });
export type NewHostModem = z.infer<typeof newHostModemSchema>;

/** GET /admin/hosts — each host with its modems and their reports, and the new modems its agent reports. */
export const inventoryHostSchema = z.extend(hostSchema, {
  modems: z.array(reportedHostModemSchema),
  newModems: z.array(newHostModemSchema),
});
export const inventoryHostsResponseSchema = z.object({ items: z.array(inventoryHostSchema), now: isoDate });
export type InventoryHost = z.infer<typeof inventoryHostSchema>;
export type InventoryHostsResponse = z.infer<typeof inventoryHostsResponseSchema>;

/**
 * POST /admin/hosts/:id/modems — adds a modem the host reports to the inventory. The IMEI is the reported one (the
 * console sends it from the list; nobody types it); the server gives the modem listening ports that no other modem
 * of the host uses, its driver and its measured IP from the report. Answers modemResponseSchema (admin.ts).
 */
export const adoptModemRequestSchema = z.object({
  imei: text().check(z.minLength(1), z.maxLength(32)),
  countryId: uuid,
  carrierId: uuid,
  regionId: z.optional(z.nullable(uuid)),
  isShared: z.boolean(),
  /** Ports a shared modem serves; 1 for dedicated. */
  capacity: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(1000))),
  /** Minutes between a shared modem's automatic rotations (0: none). */
  rotationInterval: z.optional(z.nullable(z.number().check(z.int(), z.minimum(0), z.maximum(1440)))),
});
export type AdoptModemRequest = z.input<typeof adoptModemRequestSchema>;

/** Where the listening ports of an added modem start: the lowest HTTP/SOCKS pair from here that its host has free. */
export const ADOPTED_MODEM_PORT_BASE = 30000;
