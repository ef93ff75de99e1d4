import * as z from 'zod/mini';
import { fingerprintPresetIdSchema } from '../../fingerprint-presets.js';
import { text } from '../text.js';
import { localizedNameSchema, moneySchema, TARIFF_PERIODS } from '../catalog.js';
import { tariffLimitsRequestSchema, tariffLimitsSchema } from '../port-limits.js';
import { trialSchema, volumeDiscountsSchema } from '../tariff-offers.js';
import { adminNamesSchema, positiveMoneySchema, trimmedText, uuid } from './common.js';

// Operator console, Catalog. Conventions and building blocks: common.ts.

export const TARIFF_PRICE_MESSAGE = 'A price is whole cents, for example 8.99';

// ---- catalog ------------------------------------------------------------------------------------------------------

export const adminCountrySchema = z.object({ id: uuid, code: text(), names: localizedNameSchema, sort: z.number() });
export const adminCarrierSchema = z.object({ id: uuid, countryId: uuid, name: text(), asn: z.nullable(z.number()) });
/** An autonomous system number: 1 to 4294967295 (RFC 6793), given as digits or with an "AS" in front. */
const asnValue = z.pipe(
  z.union([z.number(), z.string().check(z.trim(), z.regex(/^(AS)?\d{1,10}$/i, 'an ASN is digits, like 3320 or AS3320'))]),
  z.transform((v: number | string, ctx): number => {
    const n = typeof v === 'number' ? v : Number(v.replace(/^AS/i, ''));
    if (!Number.isInteger(n) || n < 1 || n > 4294967295) ctx.issues.push({ code: 'custom', message: 'an ASN is from 1 to 4294967295', input: v });
    return n;
  }),
);
const asnField = z.optional(z.nullable(asnValue));
/**
 * A region (issue 27, item 12): `name` is its English name, `names` every language's as the operator gave it, Russian
 * and Chinese empty where not given (customers then read English).
 */
export const adminRegionSchema = z.object({ id: uuid, countryId: uuid, carrierId: z.nullable(uuid), name: text(), names: localizedNameSchema });
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
  /** Each port's bandwidth cap, connection limit and monthly quota (issue 18). */
  limits: tariffLimitsSchema,
  /** The OS fingerprint preset of its ports that choose none and whose modem sets none (issue 30); null: native. */
  fingerprintDefault: z.nullable(fingerprintPresetIdSchema),
  trial: z.nullable(trialSchema),
  discounts: volumeDiscountsSchema,
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
export const carrierRequestSchema = z.object({ countryId: uuid, name: trimmedText(100), asn: asnField });
export const carrierPatchRequestSchema = z.object({ name: z.optional(trimmedText(100)), asn: asnField });
export const carrierResponseSchema = z.object({ carrier: adminCarrierSchema });
/** POST /admin/regions, PATCH /admin/regions/:id, DELETE /admin/regions/:id. */
/** A region's names: English 1-100 characters; Russian and Chinese up to 100, empty or left out for "as in English". */
export const regionNamesSchema = z.object({
  en: trimmedText(100),
  ru: z.optional(text().check(z.trim(), z.maxLength(100))),
  cn: z.optional(text().check(z.trim(), z.maxLength(100))),
});
export const regionRequestSchema = z.object({ countryId: uuid, carrierId: z.optional(z.nullable(uuid)), names: regionNamesSchema });
export const regionPatchRequestSchema = z.object({ names: z.optional(regionNamesSchema), carrierId: z.optional(z.nullable(uuid)) });
export const regionResponseSchema = z.object({ region: adminRegionSchema });
/** POST /admin/tariffs, PATCH /admin/tariffs/:id (no DELETE: ports refer to tariffs; set active false). */
export const tariffRequestSchema = z.object({
  names: adminNamesSchema,
  /** Whole cents of micro-USD: a customer is charged whole cents, so a tariff cannot cost a fraction of one. */
  price: positiveMoneySchema.check(z.refine((v) => /^\d{1,18}$/.test(v) && BigInt(v) % 10_000n === 0n, TARIFF_PRICE_MESSAGE)),
  period: z.enum(TARIFF_PERIODS),
  countryId: uuid,
  carrierId: z.optional(z.nullable(uuid)),
  regionId: z.optional(z.nullable(uuid)),
  isShared: z.boolean(),
  rotationInterval: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1440))),
  recurring: z.optional(z.boolean()),
  active: z.optional(z.boolean()),
  sort: z.optional(z.number().check(z.int(), z.minimum(-100000), z.maximum(100000))),
  /** Fields left out keep their value (a new tariff: no cap, 200 connections, no quota). */
  limits: z.optional(tariffLimitsRequestSchema),
  fingerprintDefault: z.optional(z.nullable(fingerprintPresetIdSchema)),
  /** A paid trial (issue 27, item 8): left out keeps it, null removes it. */
  trial: z.optional(z.nullable(trialSchema)),
  /** Volume discount steps; left out keeps them. */
  discounts: z.optional(volumeDiscountsSchema),
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
/** A carrier request as the server reads it (the ASN parsed to a number). */
export type CarrierInput = z.output<typeof carrierRequestSchema>;
export type RegionRequest = z.input<typeof regionRequestSchema>;
export type RegionPatchRequest = z.input<typeof regionPatchRequestSchema>;
export type RegionNames = z.input<typeof regionNamesSchema>;
export type TariffRequest = z.input<typeof tariffRequestSchema>;
export type TariffPatchRequest = z.input<typeof tariffPatchRequestSchema>;
export type RotationIntervalRequest = z.input<typeof rotationIntervalRequestSchema>;
export type RotationIntervalPatchRequest = z.input<typeof rotationIntervalPatchRequestSchema>;

// ---- realtime -----------------------------------------------------------------------------------------------------

/** Bus/socket event 'tariff:changed' after any tariff write: clients refetch GET /api/v1/tariffs. */
export const tariffChangedEventSchema = z.object({ tariffId: uuid, action: z.enum(['created', 'updated']) });
export type TariffChangedEvent = z.infer<typeof tariffChangedEventSchema>;
