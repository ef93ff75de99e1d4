import * as z from 'zod/mini';
import { portFingerprintPatchSchema, portFingerprintSchema } from './fingerprint.js';
import { tariffLimitsSchema } from './port-limits.js';
import { trialSchema, volumeDiscountsSchema } from './tariff-offers.js';
import { APPLY_STATUSES, CATALOG_LIMITS, CATALOG_MESSAGES, TARIFF_PERIODS } from './catalog-constants.js';
import { text } from './text.js';
import { whitelistRangeProblem } from './whitelist-ranges.js';

// Catalog, buying from the balance, renewals and proxy management (issue 3). Server routes validate and serialize
// with these schemas, and the web pages use the same ones, so both sides agree on every field.
//
// Money: every amount in the JSON API is a STRING of integer minor units (USD/USDT micro-units: "2500000" = $2.50;
// BTC: satoshi). Ids are UUID strings. Dates are ISO-8601 strings.

// The limits, choices and messages live in catalog-constants.ts, the money arithmetic in charges.ts:
// both without zod, so a page that shows a limit or a price loads neither the schemas nor zod (issue 31, item 4).
export * from './catalog-constants.js';
export * from './charges.js';

// ---- building blocks ----------------------------------------------------------------------------------------------

export const idSchema = z.uuid();
/** Integer minor units as a string ("2500000" = $2.50). */
export const moneySchema = text().check(z.regex(/^\d+$/));
export const localizedNameSchema = z.object({ en: text(), ru: text(), cn: text() });
export type LocalizedName = z.infer<typeof localizedNameSchema>;
const int = (min: number, max: number, message?: string) =>
  z.number().check(z.int(message), z.minimum(min, message), z.maximum(max, message));
const isoDate = text();
const optionalId = z.optional(z.nullable(idSchema));

export const languageQuerySchema = z.object({ lng: z.optional(text().check(z.maxLength(10))) });

// ---- GET /api/v1/account ------------------------------------------------------------------------------------------

const coinAccountSchema = z.object({ balance: moneySchema, address: z.nullable(text()) });
export const accountResponseSchema = z.object({ btc: coinAccountSchema, usdt: coinAccountSchema });
export type AccountResponse = z.infer<typeof accountResponseSchema>;

// ---- GET /api/v1/countries ----------------------------------------------------------------------------------------

export const carrierSchema = z.object({
  _id: idSchema, name: text(),
  /** The carrier's autonomous system number (the operator's word); null: not told. */
  asn: z.optional(z.nullable(z.number())),
});
export const regionSchema = z.object({
  _id: idSchema,
  /** In the request language (?lng= or Accept-Language), English where the operator gave none. */
  name: text(),
  /** Every language's name, English standing in for one the operator left empty (issue 27, item 12). */
  names: localizedNameSchema,
  carrier_id: z.nullable(idSchema),
});
export const countrySchema = z.object({
  _id: idSchema,
  /** ISO 3166-1 alpha-2, upper case. */
  code: text(),
  /** In the request language (?lng= or Accept-Language; en fallback). */
  name: text(),
  names: localizedNameSchema,
  carriers: z.array(carrierSchema),
  regions: z.array(regionSchema),
});
export const countriesResponseSchema = z.array(countrySchema);
export type Carrier = z.infer<typeof carrierSchema>;
export type Region = z.infer<typeof regionSchema>;
export type Country = z.infer<typeof countrySchema>;

// ---- GET /api/v1/tariffs ------------------------------------------------------------------------------------------

export const tariffSchema = z.object({
  _id: idSchema,
  name: localizedNameSchema,
  price: moneySchema,
  period: z.enum(TARIFF_PERIODS),
  periodDays: z.union([z.literal(1), z.literal(7), z.literal(30)]),
  country_id: idSchema,
  carrier_id: z.nullable(idSchema),
  region_id: z.nullable(idSchema),
  isShared: z.boolean(),
  /** Minutes; 0 = on demand only. */
  rotationInterval: z.number(),
  /** Whether a monthly subscription may be offered for it (spec §4, card payment type). */
  recurring: z.boolean(),
  /** Each port's bandwidth cap, connection limit and monthly quota (issue 18). */
  limits: tariffLimitsSchema,
  /** A paid trial of one port, once per customer (issue 27, item 8); null when the tariff offers none. */
  trial: z.nullable(trialSchema),
  /** Volume discounts: whole percents off by ports in one order and by days paid at once (pricing.ts prices them). */
  discounts: volumeDiscountsSchema,
});
export const tariffsResponseSchema = z.array(tariffSchema);
export type Tariff = z.infer<typeof tariffSchema>;

// ---- GET /api/v1/modems/rotation-tags -----------------------------------------------------------------------------

export const rotationTagSchema = z.object({ value: z.number(), label: text() });
export const rotationTagsResponseSchema = z.array(rotationTagSchema);
export type RotationTag = z.infer<typeof rotationTagSchema>;

// ---- GET /api/v1/modems/count/:country_id -------------------------------------------------------------------------

export const modemCountParamsSchema = z.object({ country_id: idSchema });
export const modemCountQuerySchema = z.object({
  isShared: z.optional(z.enum(['true', 'false'])),
  carrier_id: z.optional(idSchema),
  region_id: z.optional(idSchema),
  rotationInterval: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(1440))),
});
export const modemCountResponseSchema = z.object({ count: z.number() });
export type ModemCountQuery = z.input<typeof modemCountQuerySchema>;
export type ModemCountResponse = z.infer<typeof modemCountResponseSchema>;

// ---- GET /api/v1/catalog/offers -----------------------------------------------------------------------------------

/**
 * What a choice on Add Proxies buys (issue 27, item 8): one row per country, carrier (null: any carrier), region
 * (null: any region), port type and, for shared ports, rotation interval (null for dedicated ports: they take any).
 * Speeds and latency are the median over the choice's modems of each modem's rolling median of its agent's speed
 * tests; null while none was measured. `udp`: whether most of its checked modems answered UDP (SOCKS5 UDP works).
 */
export const catalogOfferSchema = z.object({
  country_id: idSchema,
  carrier_id: z.nullable(idSchema),
  region_id: z.nullable(idSchema),
  isShared: z.boolean(),
  rotationInterval: z.nullable(z.number()),
  /** Ports that can be bought now. */
  inStock: z.number(),
  /** Modems behind the choice, and how many of them have been measured. */
  modems: z.number(),
  measured: z.number(),
  downMbps: z.nullable(z.number()),
  upMbps: z.nullable(z.number()),
  latencyMs: z.nullable(z.number()),
  udp: z.nullable(z.boolean()),
  asn: z.nullable(z.number()),
});
export const catalogOffersResponseSchema = z.object({ offers: z.array(catalogOfferSchema) });
export type CatalogOffer = z.infer<typeof catalogOfferSchema>;
export type CatalogOffersResponse = z.infer<typeof catalogOffersResponseSchema>;

// ---- POST /api/v1/coupons/check -----------------------------------------------------------------------------------

export const couponNameSchema = text().check(z.trim(), z.minLength(1), z.maxLength(CATALOG_LIMITS.couponNameMax));
export const couponCheckRequestSchema = z.object({
  coupon_name: couponNameSchema,
  tariff_id: optionalId,
  country_id: optionalId,
});
export const couponSchema = z.object({
  name: text(),
  type: z.enum(['percent', 'fixed']),
  /** For type percent: 1..100. */
  percent: z.optional(z.number()),
  /** For type fixed: minor units off the total. */
  amount: z.optional(moneySchema),
});
export const couponCheckResponseSchema = z.object({ error: z.null(), coupon: couponSchema });
export type CouponCheckRequest = z.input<typeof couponCheckRequestSchema>;
export type Coupon = z.infer<typeof couponSchema>;
export type CouponCheckResponse = z.infer<typeof couponCheckResponseSchema>;

// ---- ports ("modems" in the API) ----------------------------------------------------------------------------------

/**
 * The account's own prefix of the proxy logins a customer chooses (docs/decisions/035-proxy-logins-per-customer.md):
 * five lower-case letters or digits and a dot. A chosen login is stored as prefix + name, so it never clashes with
 * another customer's, and renaming tells nothing about the logins others use.
 */
export const PROXY_LOGIN_PREFIX_LENGTH = 5;
/** A chosen login: the name alone, or with the account's own prefix in front (as the port list shows it). */
export const proxyLoginSchema = text().check(
  z.regex(/^(?:[a-z0-9]{5}\.)?[A-Za-z0-9_-]{4,32}$/, CATALOG_MESSAGES.proxyLogin),
);
// Printable ASCII without the space (0x21..0x7e), ':' and '@' (they split host:port:user:pass and user:pass@host), with
// a letter and a digit: with the agent's guess limit, 10 such characters are out of reach of guessing.
export const proxyPasswordSchema = text().check(
  // The length first, and alone (issue 26 item 3): the pattern never sees long input.
  z.maxLength(CATALOG_LIMITS.proxyPasswordMax, { message: CATALOG_MESSAGES.proxyPassword, abort: true }),
  z.regex(/^(?=[^:@]*$)(?=.*[A-Za-z])(?=.*[0-9])[\x21-\x7e]{10,32}$/, CATALOG_MESSAGES.proxyPassword),
);
/**
 * One whitelist entry: an IPv4 or IPv6 address, or a CIDR range of either, of the customer's own public networks
 * (whitelist-ranges.ts says which and why). Overlaps with other ports of the same modem are the server's check.
 */
export const whitelistEntrySchema = text().check(z.superRefine((entry, ctx) => {
  const problem = whitelistRangeProblem(entry);
  if (problem) ctx.issues.push({ code: 'custom', input: entry, message: CATALOG_MESSAGES[problem] });
}));
export const whitelistSchema = z.array(
  text().check(z.trim(), z.maxLength(64, CATALOG_MESSAGES.whitelistEntry)),
).check(z.maxLength(CATALOG_LIMITS.whitelistMax, CATALOG_MESSAGES.whitelistSize));
export const modemNameSchema = text().check(
  z.trim(),
  z.minLength(1, CATALOG_MESSAGES.modemName),
  z.maxLength(CATALOG_LIMITS.modemNameMax, CATALOG_MESSAGES.modemName),
);

/**
 * One tag of a port (issue 16, item 4), e.g. "scraper-eu": letters of any script, digits, - _ . and :, no spaces,
 * compared in lower case (the schema lowers it, so "Scraper-EU" and "scraper-eu" are one tag).
 */
export const portTagSchema = text().check(
  z.trim(),
  z.toLowerCase(),
  z.regex(/^[\p{L}\p{N}][\p{L}\p{N}_.:-]*$/u, CATALOG_MESSAGES.portTag),
  z.maxLength(CATALOG_LIMITS.portTagMax, CATALOG_MESSAGES.portTag),
);
export const portTagsSchema = z.array(portTagSchema).check(z.maxLength(CATALOG_LIMITS.portTagsMax, CATALOG_MESSAGES.portTags));
/** The customer's own note on a port (what it is for, who uses it); empty when none. */
export const portNoteSchema = text().check(z.trim(), z.maxLength(CATALOG_LIMITS.portNoteMax, CATALOG_MESSAGES.portNote));

export const portSchema = z.object({
  _id: idSchema,
  IMEI: text(),
  modem_name: text(),
  status: z.enum(['active', 'expired']),
  applyStatus: z.enum(APPLY_STATUSES),
  ext_ip: text(),
  online: z.boolean(),
  /** An operator has suspended the port (abuse handling): it refuses connections until resumed. */
  suspended: z.boolean(),
  /** Host name or address the customer connects to. */
  host: text(),
  http_port: z.number(),
  socks_port: z.number(),
  login: text(),
  password: text(),
  whitelist: z.array(text()),
  rotationInterval: z.number(),
  /** Full URL: `${publicUrl}/api/v1/rotate/{token}`; opening it rotates without signing in. */
  rotationLink: text(),
  expiresAt: isoDate,
  autoRenew: z.boolean(),
  tariff_id: idSchema,
  tariffName: localizedNameSchema,
  period: z.enum(TARIFF_PERIODS),
  /** Tariff price per period, minor units. */
  price: moneySchema,
  country: z.object({ _id: idSchema, code: text(), name: text() }),
  carrier: z.object({ _id: idSchema, name: text() }),
  region: z.nullable(z.object({ _id: idSchema, name: text() })),
  isShared: z.boolean(),
  lastRotatedAt: z.nullable(isoDate),
  /**
   * When the schedule rotates the port next: a shared port's modem's, a dedicated port's own interval's; null when
   * none runs. A shared port rotates only so (on-demand rotation is refused).
   */
  nextRotationAt: z.nullable(isoDate),
  /** The customer's tags, sorted; filter with GET /api/v1/modems?tag=. */
  tags: z.array(text()),
  /** The customer's note; empty when none. */
  note: text(),
  /** The OS fingerprint preset of its new connections (issue 30); choose with PATCH `fingerprint`. */
  fingerprint: portFingerprintSchema,
});
export const portsResponseSchema = z.array(portSchema);
/** GET /api/v1/modems: every port, or only those with this tag. */
export const portsQuerySchema = z.extend(languageQuerySchema, { tag: z.optional(portTagSchema) });
export type PortsQuery = z.infer<typeof portsQuerySchema>;
export type Port = z.infer<typeof portSchema>;

export const portParamsSchema = z.object({ id: idSchema });
export const portPatchRequestSchema = z.object({
  modem_name: z.optional(modemNameSchema),
  login: z.optional(proxyLoginSchema),
  password: z.optional(proxyPasswordSchema),
  whitelist: z.optional(whitelistSchema),
  rotationInterval: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1440))),
  autoRenew: z.optional(z.boolean()),
  /** Replaces the port's tags (duplicates dropped); [] removes them all. */
  tags: z.optional(portTagsSchema),
  /** Replaces the note; "" removes it. */
  note: z.optional(portNoteSchema),
  /** The OS fingerprint preset (GET /api/v1/fingerprint-presets); null follows the operator's default again. */
  fingerprint: z.optional(portFingerprintPatchSchema),
});
export type PortPatchRequest = z.input<typeof portPatchRequestSchema>;

export const rotateResponseSchema = z.object({
  old_ip: text(),
  new_ip: text(),
  applyStatus: z.enum(APPLY_STATUSES),
});
export const rotationLinkResponseSchema = z.object({ rotationLink: text() });
export const rotateTokenParamsSchema = z.object({ token: text().check(z.minLength(1), z.maxLength(200)) });
export const publicRotateResponseSchema = z.object({ old_ip: text(), new_ip: text() });
export type RotateResponse = z.infer<typeof rotateResponseSchema>;
export type RotationLinkResponse = z.infer<typeof rotationLinkResponseSchema>;
export type PublicRotateResponse = z.infer<typeof publicRotateResponseSchema>;
/**
 * 429 body of the rotation routes: a rotation asked for too soon (code ROTATION_TOO_SOON), or the rate limiter's
 * answer (RATE_LIMITED), which every 429 gives in this same shape.
 */
export const rotationTooSoonSchema = z.object({ error: z.string(), code: z.string(), retryAfter: z.number() });
/**
 * 409 body of the rotation routes: a shared port, which rotates only on its modem's schedule (code
 * SHARED_PORT_ROTATION, with the next scheduled rotation, null when the modem has none), or an expired port.
 */
export const rotationRefusedSchema = z.object({ error: z.string(), code: z.string(), nextRotationAt: z.optional(z.nullable(isoDate)) });

// ---- payments -----------------------------------------------------------------------------------------------------

export const paymentSchema = z.object({
  _id: idSchema,
  /** 'balance' (bought from the balance), 'crypto', 'card' or 'paypal' (issue 4). */
  provider: text(),
  /** 'topup' (issue 4) only credits the balance. */
  kind: z.enum(['topup', 'purchase', 'renewal']),
  status: text(),
  /** What was charged, after the discount. */
  amount: moneySchema,
  currency: z.literal('USD'),
  coupon: z.nullable(text()),
  /** Minor units taken off by the coupon ("0" without one). */
  discount: moneySchema,
  description: text(),
  modemCount: z.number(),
  createdAt: isoDate,
  ports: z.array(z.object({ _id: idSchema, modem_name: text() })),
});
export const paymentsResponseSchema = z.array(paymentSchema);
export type Payment = z.infer<typeof paymentSchema>;

// ---- POST /api/v1/payment/balance/buy -----------------------------------------------------------------------------

export const buyRequestSchema = z.object({
  tariff_id: idSchema,
  country_id: idSchema,
  carrier_id: optionalId,
  region_id: optionalId,
  isShared: z.boolean(),
  rotationInterval: z.number().check(z.int(), z.minimum(0), z.maximum(1440)),
  modemCount: int(CATALOG_LIMITS.modemCountMin, CATALOG_LIMITS.modemCountMax, CATALOG_MESSAGES.modemCount),
  /** Empty or absent: no coupon. */
  coupon: z.optional(z.nullable(text().check(z.trim(), z.maxLength(CATALOG_LIMITS.couponNameMax)))),
  /** Buy the tariff's paid trial: one port for its hours at its price, once per customer, no coupon. */
  trial: z.optional(z.boolean()),
});
export type BuyRequest = z.input<typeof buyRequestSchema>;
export const purchaseResponseSchema = z.object({
  error: z.null(),
  data: z.object({ payment: paymentSchema, modems: z.array(portSchema) }),
});
export type PurchaseResponse = z.infer<typeof purchaseResponseSchema>;

// ---- POST /api/v1/payment/balance/renew ---------------------------------------------------------------------------

export const basketEntrySchema = z.object({
  periods: z.optional(int(CATALOG_LIMITS.renewPeriodsMin, CATALOG_LIMITS.renewPeriodsMax, CATALOG_MESSAGES.basketEntry)),
  days: z.optional(int(CATALOG_LIMITS.renewDaysMin, CATALOG_LIMITS.renewDaysMax, CATALOG_MESSAGES.basketEntry)),
}).check(z.refine((v) => (v.periods === undefined) !== (v.days === undefined), { message: CATALOG_MESSAGES.basketEntry }));
export const renewRequestSchema = z.object({
  basket: z.record(idSchema, basketEntrySchema).check(
    z.refine((b) => {
      const n = Object.keys(b).length;
      return n >= 1 && n <= CATALOG_LIMITS.basketMax;
    }, { message: CATALOG_MESSAGES.basketSize }),
  ),
  coupon: z.optional(z.nullable(text().check(z.trim(), z.maxLength(CATALOG_LIMITS.couponNameMax)))),
});
export type BasketEntry = z.input<typeof basketEntrySchema>;
export type RenewRequest = z.input<typeof renewRequestSchema>;
/** Same shape as a purchase: the renewal payment and the renewed ports. */
export const renewResponseSchema = purchaseResponseSchema;
export type RenewResponse = PurchaseResponse;
