import { couponCheckRequestSchema, couponCheckResponseSchema } from '@cellport/shared/schemas/catalog';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import type { CouponsService } from './coupons.service.js';

/** POST /api/v1/coupons/check: the discount a coupon gives, or why it cannot be used. */
export function registerCoupons(app: App, ctx: AppContext, { coupons }: { coupons: CouponsService }): void {
  app.post('/api/v1/coupons/check', {
    onRequest: requireUser,
    // Coupon names are guessable: limited per customer.
    config: { rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => r.user?.userId ?? r.ip } },
    schema: { body: couponCheckRequestSchema, response: { 200: couponCheckResponseSchema } },
  }, async (request) => {
    const { coupon_name, tariff_id, country_id } = request.body;
    const coupon = await coupons.check(currentUser(request).userId, coupon_name, {
      tariffIds: tariff_id ? [tariff_id] : [], countryIds: country_id ? [country_id] : [],
    });
    return { error: null, coupon };
  });
}
