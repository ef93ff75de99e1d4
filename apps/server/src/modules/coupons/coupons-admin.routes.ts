import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import {
  couponPatchRequestSchema, couponRedemptionsResponseSchema, couponRequestSchema, couponResponseSchema,
  couponsResponseSchema,
} from '@cellport/shared/schemas/admin/coupons';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { CouponsAdminService } from './coupons-admin.service.js';

export function registerCouponsAdminRoutes(app: App, coupons: CouponsAdminService): void {
  const { read, write } = adminRateLimits;
  const params = adminIdParamsSchema;
  app.get('/coupons', { config: read, schema: { response: { 200: couponsResponseSchema } } }, async () => ({ items: await coupons.list() }));
  app.post('/coupons', { config: write, schema: { body: couponRequestSchema, response: { 200: couponResponseSchema } } },
    async (r) => ({ coupon: await coupons.create(actorOf(r), r.body) }));
  app.patch('/coupons/:id', { config: write, schema: { params, body: couponPatchRequestSchema, response: { 200: couponResponseSchema } } },
    async (r) => ({ coupon: await coupons.update(actorOf(r), r.params.id, r.body) }));
  app.delete('/coupons/:id', { config: write, schema: { params, response: { 200: okResponseSchema } } },
    async (r) => { await coupons.remove(actorOf(r), r.params.id); return { ok: true as const }; });
  app.get('/coupons/:id/redemptions', { config: read, schema: { params, response: { 200: couponRedemptionsResponseSchema } } },
    async (r) => coupons.redemptions(r.params.id));
}
