import * as z from 'zod/mini';
import { fingerprintPresetIdSchema } from '../../fingerprint-presets.js';
import { text } from '../text.js';
import { ADMIN_LIMITS, isoDate, pageOf, pageQueryFields, portNumber, searchField, uuid } from './common.js';

// Operator console, Inventory: modems, their CSV import and the stock. Conventions and building blocks: common.ts.

// ---- inventory: modems --------------------------------------------------------------------------------------------

/** `presetFailing`: modems with a port whose OS fingerprint preset its host could not apply (issue 30; it refuses new connections). */
export const MODEM_STATUSES = ['online', 'offline', 'retired', 'free', 'used', 'presetFailing'] as const;
export type ModemStatusFilter = (typeof MODEM_STATUSES)[number];
/** GET /admin/modems?status=&country_id=&carrier_id=&region_id=&host_id=&isShared=&q=&page= (q: IMEI or IP). */
export const modemsQuerySchema = z.object({
  status: z.optional(z.enum(MODEM_STATUSES)),
  country_id: z.optional(uuid),
  carrier_id: z.optional(uuid),
  region_id: z.optional(uuid),
  host_id: z.optional(uuid),
  isShared: z.optional(z.enum(['true', 'false'])),
  q: searchField,
  ...pageQueryFields,
});
export const modemUserSchema = z.object({
  portId: uuid, userId: uuid, email: text(), portName: text(), status: z.enum(['active', 'expired']), expiresAt: isoDate,
});
export const adminModemSchema = z.object({
  id: uuid,
  imei: text(),
  hostId: uuid,
  hostName: text(),
  httpPort: z.number(),
  socksPort: z.number(),
  extIp: text(),
  online: z.boolean(),
  retired: z.boolean(),
  applyStatus: text(),
  countryId: uuid,
  carrierId: uuid,
  regionId: z.nullable(uuid),
  isShared: z.boolean(),
  capacity: z.number(),
  usedSlots: z.number(),
  /** Minutes, shared modems only (one schedule for everyone on it); null for dedicated. */
  rotationInterval: z.nullable(z.number()),
  lastRotatedAt: z.nullable(isoDate),
  /**
   * In maintenance since (issue 15, item 6): its ports moved to another modem; not sold until an operator returns it
   * (POST /admin/modems/:id/return-to-service). Null when in service.
   */
  maintenanceSince: z.optional(z.nullable(isoDate)),
  /** Who uses it now: its ports that are not released. */
  users: z.array(modemUserSchema),
  /** The OS fingerprint preset of its ports that choose none (issue 30); null: their tariff's. */
  fingerprintDefault: z.nullable(fingerprintPresetIdSchema),
  /** Why its host cannot apply presets (its agent's words); null when it can. */
  fingerprintUnavailable: z.nullable(text()),
  /** Its ports whose preset the host could not apply: they refuse new connections until it can. */
  fingerprintFailing: z.array(z.object({ portId: uuid, reason: text() })),
});
export const modemsResponseSchema = pageOf(adminModemSchema);
export const modemRequestSchema = z.object({
  imei: text().check(z.trim(), z.regex(/^\d{14,16}$/, 'IMEI must be 14-16 digits')),
  hostId: uuid,
  httpPort: portNumber,
  socksPort: portNumber,
  extIp: z.union([z.ipv4(), z.ipv6()]),
  countryId: uuid,
  carrierId: uuid,
  regionId: z.optional(z.nullable(uuid)),
  isShared: z.boolean(),
  /** Ports a shared modem serves; 1 for dedicated. */
  capacity: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(1000))),
  rotationInterval: z.optional(z.nullable(z.number().check(z.int(), z.minimum(0), z.maximum(1440)))),
  online: z.optional(z.boolean()),
});
/** PATCH /admin/modems/:id — any field; `retired` false brings a retired modem back. */
export const modemPatchRequestSchema = z.extend(z.partial(modemRequestSchema), {
  retired: z.optional(z.boolean()),
  /** Issue 30: the preset of its ports that choose none; null: their tariff's. */
  fingerprintDefault: z.optional(z.nullable(fingerprintPresetIdSchema)),
});
export const modemResponseSchema = z.object({ modem: adminModemSchema });
export type ModemsQuery = z.infer<typeof modemsQuerySchema>;
export type ModemUser = z.infer<typeof modemUserSchema>;
export type AdminModem = z.infer<typeof adminModemSchema>;
export type ModemsResponse = z.infer<typeof modemsResponseSchema>;
export type ModemRequest = z.input<typeof modemRequestSchema>;
export type ModemPatchRequest = z.input<typeof modemPatchRequestSchema>;
export type ModemResponse = z.infer<typeof modemResponseSchema>;

/**
 * POST /admin/modems/import — body: the CSV text (Content-Type text/csv or text/plain), or JSON {csv}.
 * Header (first line, any order, case-insensitive): IMEI,host,http_port,socks_port,ext_ip,country,carrier,region,isShared,capacity
 * host = host name; country = ISO code; carrier, region = names in that country (region may be empty);
 * isShared = true/false/1/0/yes/no; capacity empty = 1. Valid rows are inserted, invalid ones reported.
 */
export const MODEM_CSV_COLUMNS = ['IMEI', 'host', 'http_port', 'socks_port', 'ext_ip', 'country', 'carrier', 'region', 'isShared', 'capacity'] as const;
export const modemImportRequestSchema = z.union([
  text().check(z.maxLength(ADMIN_LIMITS.csvMaxChars)),
  z.object({ csv: text().check(z.maxLength(ADMIN_LIMITS.csvMaxChars)) }),
]);
/** One line of the report; `row` is the 1-based line number in the file (the header is line 1). */
export const modemImportRowSchema = z.object({
  row: z.number(),
  ok: z.boolean(),
  /** English message; `code` (an errors-namespace key) and `field` let the console translate it. */
  error: z.nullable(text()),
  code: z.nullable(text()),
  field: z.nullable(text()),
  imei: z.nullable(text()),
  id: z.nullable(uuid),
});
export const modemImportResponseSchema = z.object({
  inserted: z.number(), failed: z.number(), rows: z.array(modemImportRowSchema),
});
export type ModemImportRow = z.infer<typeof modemImportRowSchema>;
export type ModemImportResponse = z.infer<typeof modemImportResponseSchema>;

/** GET /admin/stock — one line per (country, carrier, region, shared) of non-retired modems. */
export const stockLineSchema = z.object({
  countryId: uuid,
  countryCode: text(),
  carrierId: uuid,
  carrierName: text(),
  regionId: z.nullable(uuid),
  regionName: z.nullable(text()),
  isShared: z.boolean(),
  modems: z.number(),
  /** Port slots: free counts only online modems; offline ones are in `offline`. */
  slots: z.number(),
  used: z.number(),
  free: z.number(),
  offline: z.number(),
});
export const stockResponseSchema = z.object({
  items: z.array(stockLineSchema),
  totals: z.object({ modems: z.number(), slots: z.number(), used: z.number(), free: z.number(), offline: z.number() }),
});
export type StockLine = z.infer<typeof stockLineSchema>;
export type StockResponse = z.infer<typeof stockResponseSchema>;
