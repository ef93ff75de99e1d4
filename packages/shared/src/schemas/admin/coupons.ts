import * as z from 'zod/mini';
import { text } from '../text.js';
import { moneySchema } from '../catalog.js';
import { bigintId, isoDate, positiveMoneySchema, uuid } from './common.js';

// Operator console, Coupons. Conventions and building blocks: common.ts.

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
