import * as z from 'zod/mini';
import { text } from './text.js';
import { localizedNameSchema, moneySchema, TARIFF_PERIODS } from './catalog.js';

// Operator console (issue 6). Every route lives under /api/v1/admin/*, needs an admin session (401 visitor, 403
// customer) and records each write in the audit log. Server routes validate and serialize with these schemas and
// the console pages use the same ones.
//
// Conventions of this file: camelCase fields, `id` for ids (UUID strings, except ledger/audit ids: digit strings),
// money as STRINGS of integer minor units (USD/USDT micro-units "2500000" = $2.50, BTC satoshi), dates ISO-8601.
// Lists that can grow answer {items, total, page, pageSize}; `page` starts at 1.

export const ADMIN_LIMITS = {
  pageSizeDefault: 50,
  pageSizeMax: 200,
  searchMax: 200,
  reasonMin: 3,
  reasonMax: 500,
  csvMaxRows: 5000,
  csvMaxChars: 1_000_000,
  notificationMax: 1000,
  overviewDaysMax: 366,
  expiringSoonDays: 7,
} as const;

export const ADMIN_MESSAGES = {
  reason: 'Give a reason of 3-500 characters',
  signedAmount: 'Enter a non-zero whole number of minor units, for example 2500000 or -2500000',
  names: 'Give the name in English, Russian and Chinese',
  email: 'Enter a valid e-mail address',
} as const;

// ---- building blocks ----------------------------------------------------------------------------------------------

const uuid = z.uuid();
const isoDate = text();
const bigintId = text().check(z.regex(/^\d{1,19}$/));
/** Signed integer minor units as a string, never zero ("-2500000" takes $2.50). */
export const signedMoneySchema = text().check(
  z.trim(),
  z.regex(/^-?[1-9]\d{0,17}$/, ADMIN_MESSAGES.signedAmount),
);
export const positiveMoneySchema = text().check(z.trim(), z.regex(/^[1-9]\d{0,17}$/));
export const reasonSchema = text().check(
  z.trim(),
  z.minLength(ADMIN_LIMITS.reasonMin, ADMIN_MESSAGES.reason),
  z.maxLength(ADMIN_LIMITS.reasonMax, ADMIN_MESSAGES.reason),
);
const trimmedText = (max: number) => text().check(z.trim(), z.minLength(1), z.maxLength(max));
/** Names in the three languages, each 1-100 characters. */
export const adminNamesSchema = z.object({ en: trimmedText(100), ru: trimmedText(100), cn: trimmedText(100) }, { error: ADMIN_MESSAGES.names });
const coinSchema = z.enum(['btc', 'usdt']);
const portNumber = z.number().check(z.int(), z.minimum(1), z.maximum(65535));

export const adminIdParamsSchema = z.object({ id: uuid });
export type AdminIdParams = z.infer<typeof adminIdParamsSchema>;
export const pageQueryFields = {
  page: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000))),
  pageSize: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_LIMITS.pageSizeMax))),
};
const searchField = z.optional(text().check(z.trim(), z.maxLength(ADMIN_LIMITS.searchMax)));
const pageOf = <T extends z.core.$ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });
export const okResponseSchema = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;

// ---- admins: GET/POST /admin/admins, DELETE /admin/admins/:id -----------------------------------------------------

export const adminUserSchema = z.object({
  id: uuid, email: text(), name: text(), isActive: z.boolean(), uses2fa: z.boolean(), createdAt: isoDate,
});
export const adminsResponseSchema = z.object({ items: z.array(adminUserSchema) });
/** Promotes the account with this e-mail, or creates one (verified) with a generated password. */
export const createAdminRequestSchema = z.object({
  email: z.email(ADMIN_MESSAGES.email).check(z.maxLength(254)),
  name: z.optional(trimmedText(100)),
});
/** `password` is set only when a new account was created: shown once, never stored in clear. */
export const createAdminResponseSchema = z.object({
  admin: adminUserSchema, created: z.boolean(), password: z.nullable(text()),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export type AdminsResponse = z.infer<typeof adminsResponseSchema>;
export type CreateAdminRequest = z.input<typeof createAdminRequestSchema>;
export type CreateAdminResponse = z.infer<typeof createAdminResponseSchema>;

// ---- customers ----------------------------------------------------------------------------------------------------

/** GET /admin/customers?q=&page=&pageSize= — q matches e-mail, name or company (case-insensitive, part of it). */
export const customersQuerySchema = z.object({ q: searchField, ...pageQueryFields });
export const balancesSchema = z.object({ btc: moneySchema, usdt: moneySchema });
export const customerSummarySchema = z.object({
  id: uuid,
  email: text(),
  name: text(),
  companyName: text(),
  role: z.enum(['customer', 'admin']),
  balances: balancesSchema,
  /** Ports not released (active or expired within grace). */
  portsCount: z.number(),
  isActive: z.boolean(),
  isVerified: z.boolean(),
  uses2fa: z.boolean(),
  createdAt: isoDate,
});
export const customersResponseSchema = pageOf(customerSummarySchema);
export type CustomersQuery = z.infer<typeof customersQuerySchema>;
export type CustomerSummary = z.infer<typeof customerSummarySchema>;
export type CustomersResponse = z.infer<typeof customersResponseSchema>;

export const adminPortSchema = z.object({
  id: uuid,
  name: text(),
  status: z.enum(['active', 'expired', 'released']),
  modemId: uuid,
  imei: text(),
  extIp: text(),
  tariffId: uuid,
  isShared: z.boolean(),
  proxyLogin: text(),
  expiresAt: isoDate,
  autoRenew: z.boolean(),
  createdAt: isoDate,
  /** Set while an operator has suspended the port (abuse handling): it refuses connections. */
  suspendedAt: z.nullable(isoDate),
});
export const ledgerEntrySchema = z.object({
  id: bigintId,
  coin: coinSchema,
  /** Signed minor units: credits positive, debits negative. */
  amount: text(),
  kind: text(),
  reference: text(),
  paymentId: z.nullable(uuid),
  createdAt: isoDate,
});
export const customerSessionSchema = z.object({
  /** The first 12 characters of the stored hash: enough to tell sessions apart, useless as a credential. */
  id: text(),
  ip: text(),
  userAgent: text(),
  createdAt: isoDate,
  lastSeenAt: isoDate,
  expiresAt: isoDate,
});
export const customerNotificationSchema = z.object({
  id: uuid, type: text(), text: text(), unread: z.boolean(), createdAt: isoDate,
});
export const adminPaymentSchema = z.object({
  id: uuid,
  userId: uuid,
  email: text(),
  provider: text(),
  kind: text(),
  status: text(),
  /** What was charged, after the discount. */
  amount: moneySchema,
  discount: moneySchema,
  currency: text(),
  coupon: z.nullable(text()),
  description: text(),
  modemCount: z.number(),
  tariffId: z.nullable(uuid),
  /** Minor units refunded so far ("0" when none). */
  refunded: moneySchema,
  createdAt: isoDate,
});
/** GET /admin/customers/:id — the newest 100 of each list. */
export const customerDetailResponseSchema = z.object({
  customer: z.extend(customerSummarySchema, {
    language: text(),
    purpose: text(),
    websiteWishlist: text(),
    marketingConsent: z.boolean(),
  }),
  ports: z.array(adminPortSchema),
  payments: z.array(adminPaymentSchema),
  ledger: z.array(ledgerEntrySchema),
  sessions: z.array(customerSessionSchema),
  notifications: z.array(customerNotificationSchema),
});
export type AdminPort = z.infer<typeof adminPortSchema>;
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export type CustomerSession = z.infer<typeof customerSessionSchema>;
export type CustomerNotification = z.infer<typeof customerNotificationSchema>;
export type CustomerDetailResponse = z.infer<typeof customerDetailResponseSchema>;

/** POST /admin/customers/:id/deactivate and /reactivate answer the updated summary. */
export const customerResponseSchema = z.object({ customer: customerSummarySchema });
export type CustomerResponse = z.infer<typeof customerResponseSchema>;
/** Body of deactivate/reactivate/reset-2fa/resend-confirmation: an optional note kept in the audit log. */
export const customerActionRequestSchema = z.optional(z.nullable(z.object({ reason: z.optional(reasonSchema) })));

/** POST /admin/customers/:id/balance-adjustments — a debit never takes the balance below zero. */
export const balanceAdjustmentRequestSchema = z.object({
  coin: coinSchema,
  amount: signedMoneySchema,
  reason: reasonSchema,
});
export const balanceAdjustmentResponseSchema = z.object({ entry: ledgerEntrySchema, balance: moneySchema });
export type BalanceAdjustmentRequest = z.input<typeof balanceAdjustmentRequestSchema>;
export type BalanceAdjustmentResponse = z.infer<typeof balanceAdjustmentResponseSchema>;

// ---- ports: POST /admin/ports/:id/suspend and /resume (abuse handling) --------------------------------------------

/**
 * Suspend: the port refuses connections (its open tunnels close) until resumed; expiry and renewals go on as before.
 * Suspending a suspended port or resuming one that is not answers 409 (PORT_ALREADY_SUSPENDED, PORT_NOT_SUSPENDED);
 * a released port cannot be suspended (PORT_RELEASED). The optional reason goes to the audit log.
 */
export const portActionRequestSchema = z.optional(z.nullable(z.object({ reason: z.optional(reasonSchema) })));
export const portActionResponseSchema = z.object({ port: adminPortSchema });
export type PortActionRequest = z.input<typeof portActionRequestSchema>;
export type PortActionResponse = z.infer<typeof portActionResponseSchema>;

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
});
/** `now`: the server's clock when it answered, so the console shows "12 s ago" without trusting the browser's clock. */
export const hostsResponseSchema = z.object({ items: z.array(hostSchema), now: isoDate });
export const hostRequestSchema = z.object({ name: trimmedText(100), address: trimmedText(255) });
export const hostPatchRequestSchema = z.partial(hostRequestSchema);
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

// ---- inventory: modems --------------------------------------------------------------------------------------------

export const MODEM_STATUSES = ['online', 'offline', 'retired', 'free', 'used'] as const;
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
  /** Who uses it now: its ports that are not released. */
  users: z.array(modemUserSchema),
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
export const modemPatchRequestSchema = z.extend(z.partial(modemRequestSchema), { retired: z.optional(z.boolean()) });
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

// ---- catalog ------------------------------------------------------------------------------------------------------

export const adminCountrySchema = z.object({ id: uuid, code: text(), names: localizedNameSchema, sort: z.number() });
export const adminCarrierSchema = z.object({ id: uuid, countryId: uuid, name: text() });
export const adminRegionSchema = z.object({ id: uuid, countryId: uuid, carrierId: z.nullable(uuid), name: text() });
export const adminTariffSchema = z.object({
  id: uuid,
  names: localizedNameSchema,
  price: moneySchema,
  period: z.enum(TARIFF_PERIODS),
  periodDays: z.number(),
  countryId: uuid,
  carrierId: z.nullable(uuid),
  regionId: z.nullable(uuid),
  isShared: z.boolean(),
  rotationInterval: z.number(),
  /** Monthly card subscriptions allowed for it. */
  recurring: z.boolean(),
  /** Inactive tariffs are hidden from customers; existing ports keep renewing per their own rules. */
  active: z.boolean(),
  sort: z.number(),
});
export const rotationIntervalSchema = z.object({
  /** Minutes; 0 = on demand only. */
  minutes: z.number(),
  /** Label overrides per language; null = the built-in wording ("5 minutes"). */
  labels: z.nullable(localizedNameSchema),
  active: z.boolean(),
  sort: z.number(),
});
/** GET /admin/catalog — everything the catalog pages edit, in one answer. */
export const adminCatalogResponseSchema = z.object({
  countries: z.array(adminCountrySchema),
  carriers: z.array(adminCarrierSchema),
  regions: z.array(adminRegionSchema),
  tariffs: z.array(adminTariffSchema),
  rotationIntervals: z.array(rotationIntervalSchema),
});
export type AdminCountry = z.infer<typeof adminCountrySchema>;
export type AdminCarrier = z.infer<typeof adminCarrierSchema>;
export type AdminRegion = z.infer<typeof adminRegionSchema>;
export type AdminTariff = z.infer<typeof adminTariffSchema>;
export type RotationInterval = z.infer<typeof rotationIntervalSchema>;
export type AdminCatalogResponse = z.infer<typeof adminCatalogResponseSchema>;

/** POST /admin/countries, PATCH /admin/countries/:id, DELETE /admin/countries/:id (only when nothing uses it). */
export const countryRequestSchema = z.object({
  code: text().check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z]{2}$/, 'Use the two-letter ISO code, for example DE')),
  names: adminNamesSchema,
  sort: z.optional(z.number().check(z.int(), z.minimum(-100000), z.maximum(100000))),
});
export const countryPatchRequestSchema = z.partial(countryRequestSchema);
export const countryResponseSchema = z.object({ country: adminCountrySchema });
/** POST /admin/carriers, PATCH /admin/carriers/:id, DELETE /admin/carriers/:id. */
export const carrierRequestSchema = z.object({ countryId: uuid, name: trimmedText(100) });
export const carrierPatchRequestSchema = z.object({ name: trimmedText(100) });
export const carrierResponseSchema = z.object({ carrier: adminCarrierSchema });
/** POST /admin/regions, PATCH /admin/regions/:id, DELETE /admin/regions/:id. */
export const regionRequestSchema = z.object({ countryId: uuid, carrierId: z.optional(z.nullable(uuid)), name: trimmedText(100) });
export const regionPatchRequestSchema = z.object({ name: z.optional(trimmedText(100)), carrierId: z.optional(z.nullable(uuid)) });
export const regionResponseSchema = z.object({ region: adminRegionSchema });
/** POST /admin/tariffs, PATCH /admin/tariffs/:id (no DELETE: ports refer to tariffs; set active false). */
export const tariffRequestSchema = z.object({
  names: adminNamesSchema,
  price: positiveMoneySchema,
  period: z.enum(TARIFF_PERIODS),
  countryId: uuid,
  carrierId: z.optional(z.nullable(uuid)),
  regionId: z.optional(z.nullable(uuid)),
  isShared: z.boolean(),
  rotationInterval: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1440))),
  recurring: z.optional(z.boolean()),
  active: z.optional(z.boolean()),
  sort: z.optional(z.number().check(z.int(), z.minimum(-100000), z.maximum(100000))),
});
export const tariffPatchRequestSchema = z.partial(tariffRequestSchema);
export const tariffResponseSchema = z.object({ tariff: adminTariffSchema });
/** POST /admin/rotation-intervals, PATCH /admin/rotation-intervals/:minutes, DELETE /admin/rotation-intervals/:minutes. */
export const rotationIntervalRequestSchema = z.object({
  minutes: z.number().check(z.int(), z.minimum(0), z.maximum(1440)),
  labels: z.optional(z.nullable(adminNamesSchema)),
  active: z.optional(z.boolean()),
  sort: z.optional(z.number().check(z.int(), z.minimum(-100000), z.maximum(100000))),
});
export const rotationIntervalPatchRequestSchema = z.object({
  labels: z.optional(z.nullable(adminNamesSchema)),
  active: z.optional(z.boolean()),
  sort: z.optional(z.number().check(z.int(), z.minimum(-100000), z.maximum(100000))),
});
export const rotationIntervalParamsSchema = z.object({ minutes: z.coerce.number().check(z.int(), z.minimum(0), z.maximum(1440)) });
export const rotationIntervalResponseSchema = z.object({ rotationInterval: rotationIntervalSchema });
export type CountryRequest = z.input<typeof countryRequestSchema>;
export type CountryPatchRequest = z.input<typeof countryPatchRequestSchema>;
export type CarrierRequest = z.input<typeof carrierRequestSchema>;
export type RegionRequest = z.input<typeof regionRequestSchema>;
export type TariffRequest = z.input<typeof tariffRequestSchema>;
export type TariffPatchRequest = z.input<typeof tariffPatchRequestSchema>;
export type RotationIntervalRequest = z.input<typeof rotationIntervalRequestSchema>;
export type RotationIntervalPatchRequest = z.input<typeof rotationIntervalPatchRequestSchema>;

// ---- coupons ------------------------------------------------------------------------------------------------------

export const adminCouponSchema = z.object({
  id: uuid,
  name: text(),
  type: z.enum(['percent', 'fixed']),
  /** 1..100 for percent coupons, null otherwise. */
  percent: z.nullable(z.number()),
  /** Minor units off the total for fixed coupons, null otherwise. */
  amount: z.nullable(moneySchema),
  validFrom: z.nullable(isoDate),
  validUntil: z.nullable(isoDate),
  /** Total uses allowed; null = unlimited. */
  maxUses: z.nullable(z.number()),
  maxUsesPerUser: z.nullable(z.number()),
  usedCount: z.number(),
  tariffId: z.nullable(uuid),
  countryId: z.nullable(uuid),
  createdAt: isoDate,
});
export const couponsResponseSchema = z.object({ items: z.array(adminCouponSchema) });
const limit = z.optional(z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(10_000_000))));
const couponFields = {
  name: text().check(z.trim(), z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Coupon names use 1-64 letters, digits, _ or -')),
  type: z.enum(['percent', 'fixed']),
  percent: z.optional(z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(100)))),
  amount: z.optional(z.nullable(positiveMoneySchema)),
  validFrom: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
  validUntil: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
  maxUses: limit,
  maxUsesPerUser: limit,
  tariffId: z.optional(z.nullable(uuid)),
  countryId: z.optional(z.nullable(uuid)),
};
/** POST /admin/coupons: percent needs `percent`, fixed needs `amount`; validUntil after validFrom. */
export const couponRequestSchema = z.object(couponFields);
/** PATCH /admin/coupons/:id: any field; the same rules apply to the result. DELETE only when never used. */
export const couponPatchRequestSchema = z.partial(z.object(couponFields));
export const couponResponseSchema = z.object({ coupon: adminCouponSchema });
export const couponRedemptionSchema = z.object({
  id: bigintId,
  userId: uuid,
  email: text(),
  paymentId: uuid,
  paymentAmount: moneySchema,
  discount: moneySchema,
  paymentStatus: text(),
  createdAt: isoDate,
});
/** GET /admin/coupons/:id/redemptions — newest first. */
export const couponRedemptionsResponseSchema = z.object({ coupon: adminCouponSchema, items: z.array(couponRedemptionSchema) });
export type AdminCoupon = z.infer<typeof adminCouponSchema>;
export type CouponsResponse = z.infer<typeof couponsResponseSchema>;
export type CouponRequest = z.input<typeof couponRequestSchema>;
export type CouponPatchRequest = z.input<typeof couponPatchRequestSchema>;
export type CouponRedemption = z.infer<typeof couponRedemptionSchema>;
export type CouponRedemptionsResponse = z.infer<typeof couponRedemptionsResponseSchema>;

// ---- payments -----------------------------------------------------------------------------------------------------

/** GET /admin/payments?provider=&status=&kind=&q=&from=&to=&page= — q: e-mail, payment id, description or coupon. */
export const adminPaymentsQuerySchema = z.object({
  provider: z.optional(text().check(z.maxLength(20))),
  status: z.optional(text().check(z.maxLength(20))),
  kind: z.optional(text().check(z.maxLength(20))),
  userId: z.optional(uuid),
  q: searchField,
  from: z.optional(z.iso.date()),
  to: z.optional(z.iso.date()),
  ...pageQueryFields,
});
export const adminPaymentsResponseSchema = pageOf(adminPaymentSchema);
export const refundSchema = z.object({
  id: uuid,
  paymentId: uuid,
  amount: moneySchema,
  /** 'provider': refunded through the card provider; 'manual': the operator sends it back by hand (PayPal, crypto);
   * 'balance': returned to the customer's balance. */
  method: z.enum(['provider', 'manual', 'balance']),
  providerRef: z.nullable(text()),
  reason: text(),
  adminId: uuid,
  createdAt: isoDate,
});
/** GET /admin/payments/:id */
export const adminPaymentDetailResponseSchema = z.object({
  payment: adminPaymentSchema,
  /** Provider-side fields the payments module keeps (ids, addresses, txids…); never secrets. */
  details: z.record(text(), z.unknown()),
  ledger: z.array(ledgerEntrySchema),
  refunds: z.array(refundSchema),
  ports: z.array(z.object({ id: uuid, name: text() })),
});
/**
 * POST /admin/payments/:id/refund — only completed payments, once each. amount defaults to the whole payment.
 * `to`: 'source' sends it back where it came from (card: through the provider; PayPal and crypto: recorded as a
 * manual refund the operator makes), 'balance' credits the customer's balance. Default: 'balance' for payments
 * made from the balance, 'source' otherwise. Always booked as ledger entries.
 */
export const refundRequestSchema = z.object({
  amount: z.optional(positiveMoneySchema),
  reason: reasonSchema,
  to: z.optional(z.enum(['source', 'balance'])),
});
export const refundResponseSchema = z.object({ refund: refundSchema, payment: adminPaymentSchema });
/** POST /admin/payments/:id/complete — completes a stuck pending payment as if the provider had confirmed it. */
export const completePaymentRequestSchema = z.object({ reason: reasonSchema });
export const completePaymentResponseSchema = z.object({ payment: adminPaymentSchema });
export type AdminPayment = z.infer<typeof adminPaymentSchema>;
export type AdminPaymentsQuery = z.infer<typeof adminPaymentsQuerySchema>;
export type AdminPaymentsResponse = z.infer<typeof adminPaymentsResponseSchema>;
export type Refund = z.infer<typeof refundSchema>;
export type AdminPaymentDetailResponse = z.infer<typeof adminPaymentDetailResponseSchema>;
export type RefundRequest = z.input<typeof refundRequestSchema>;
export type RefundResponse = z.infer<typeof refundResponseSchema>;
export type CompletePaymentRequest = z.input<typeof completePaymentRequestSchema>;
export type CompletePaymentResponse = z.infer<typeof completePaymentResponseSchema>;

// ---- notifications: POST /admin/notifications ---------------------------------------------------------------------

export const adminNotificationRequestSchema = z.object({
  to: z.union([z.literal('all'), uuid]),
  text: z.object({
    en: trimmedText(ADMIN_LIMITS.notificationMax), ru: trimmedText(ADMIN_LIMITS.notificationMax), cn: trimmedText(ADMIN_LIMITS.notificationMax),
  }),
});
/** How many customers got it. */
export const adminNotificationResponseSchema = z.object({ sent: z.number() });
export type AdminNotificationRequest = z.input<typeof adminNotificationRequestSchema>;
export type AdminNotificationResponse = z.infer<typeof adminNotificationResponseSchema>;

// ---- settings: GET/PATCH /admin/settings --------------------------------------------------------------------------

/** Never a secret: only whether each key is set. */
export const adminSettingsResponseSchema = z.object({
  card: z.object({
    mode: z.enum(['stripe', 'sandbox', 'off']),
    secretKeySet: z.boolean(), publishableKeySet: z.boolean(), webhookSecretSet: z.boolean(),
  }),
  paypal: z.object({
    mode: z.enum(['sandbox', 'live', 'off']),
    /** The receiver in effect (the operator's override, else PAYPAL_RECEIVER_EMAIL). */
    receiverEmail: text(),
    receiverOverridden: z.boolean(),
  }),
  btc: z.object({ xpubSet: z.boolean(), sandboxKey: z.boolean() }),
  usdt: z.object({ xpubSet: z.boolean(), sandboxKey: z.boolean(), apiKeySet: z.boolean() }),
  captcha: z.object({ provider: z.enum(['altcha', 'recaptcha', 'off']), siteKeySet: z.boolean(), secretKeySet: z.boolean() }),
  smtpSet: z.boolean(),
  /** The documentation link customers see (GET /api/v1/settings); null = none. */
  documentationUrl: z.nullable(text()),
});
/** PATCH /admin/settings — null clears an override (back to the configured value). */
export const adminSettingsPatchRequestSchema = z.object({
  documentationUrl: z.optional(z.nullable(z.url().check(z.maxLength(500), z.regex(/^https?:\/\//, 'Use an http(s) address')))),
  paypalReceiverEmail: z.optional(z.nullable(z.email(ADMIN_MESSAGES.email).check(z.maxLength(254)))),
});
export type AdminSettingsResponse = z.infer<typeof adminSettingsResponseSchema>;
export type AdminSettingsPatchRequest = z.input<typeof adminSettingsPatchRequestSchema>;

// ---- audit: GET /admin/audit --------------------------------------------------------------------------------------

/** q matches the action, target id, admin e-mail and the before/after text; from/to are dates (to inclusive). */
export const auditQuerySchema = z.object({
  q: searchField,
  action: z.optional(text().check(z.maxLength(100))),
  admin_id: z.optional(uuid),
  target_type: z.optional(text().check(z.maxLength(50))),
  target_id: z.optional(text().check(z.maxLength(100))),
  from: z.optional(z.iso.date()),
  to: z.optional(z.iso.date()),
  ...pageQueryFields,
});
export const auditEntrySchema = z.object({
  id: bigintId,
  adminId: z.nullable(uuid),
  adminEmail: z.nullable(text()),
  /** Dotted verb, e.g. 'customer.deactivate', 'modem.create', 'payment.refund'. */
  action: text(),
  targetType: text(),
  targetId: z.nullable(text()),
  /** Redacted: password hashes, TOTP secrets and tokens read "[redacted]". */
  before: z.nullable(z.unknown()),
  after: z.nullable(z.unknown()),
  ip: text(),
  createdAt: isoDate,
});
export const auditResponseSchema = pageOf(auditEntrySchema);
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export type AuditResponse = z.infer<typeof auditResponseSchema>;

// ---- overview: GET /admin/overview?days=30 ------------------------------------------------------------------------

export const overviewQuerySchema = z.object({
  days: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(ADMIN_LIMITS.overviewDaysMax))),
});
export const overviewResponseSchema = z.object({
  days: z.number(),
  /**
   * Revenue is money received: completed payments by an outside provider (card, PayPal, crypto), top-ups and direct
   * payments, net of refunds. By UTC day, oldest first, every day present (zero days too); micro-USD.
   */
  revenueByDay: z.array(z.object({ date: text(), amount: moneySchema, count: z.number() })),
  /** By provider ('card', 'paypal', 'crypto'), largest first. */
  revenueByMethod: z.array(z.object({ provider: text(), amount: moneySchema, count: z.number() })),
  totalRevenue: moneySchema,
  /** Usage, not revenue: purchases and renewals paid from customers' balances in the period, net of refunds. */
  balanceSpending: z.object({ amount: moneySchema, count: z.number() }),
  activePorts: z.number(),
  /** Free port slots on online, non-retired modems. */
  freeStock: z.number(),
  /** Active ports whose term ends within 7 days, soonest first (at most 100 listed; the count is exact). */
  expiringThisWeek: z.object({
    count: z.number(),
    items: z.array(z.object({
      id: uuid, name: text(), userId: uuid, email: text(), expiresAt: isoDate, autoRenew: z.boolean(),
    })),
  }),
  customers: z.object({ total: z.number(), newInPeriod: z.number() }),
});
export type OverviewQuery = z.infer<typeof overviewQuerySchema>;
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;

// ---- realtime -----------------------------------------------------------------------------------------------------

/** Bus/socket event 'tariff:changed' after any tariff write: clients refetch GET /api/v1/tariffs. */
export const tariffChangedEventSchema = z.object({ tariffId: uuid, action: z.enum(['created', 'updated']) });
export type TariffChangedEvent = z.infer<typeof tariffChangedEventSchema>;
