import { quoteRequestSchema, quoteResponseSchema, trialStatusResponseSchema } from '@cellport/shared/schemas/quote';
import type { App } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { askedLanguage } from '../../lib/request-language.js';
import type { CatalogService } from '../catalog/index.js';
import type { OrderPricing } from './order-pricing.js';
import type { PaymentRateLimit } from '../../lib/payment-rate-limit.js';

/**
 * The price of a purchase before paying (issue 27, item 8): base price, volume discount, coupon and total, priced
 * exactly as the purchase will charge it (order-pricing.ts), with the same refusals (stock, trial used, coupon).
 */
export function registerQuoteRoutes(app: App, deps: { pricing: OrderPricing; catalog: CatalogService; limited: PaymentRateLimit }): void {
  app.post('/api/v1/payment/quote',
    { onRequest: requireUser, config: deps.limited, schema: { body: quoteRequestSchema, response: { 200: quoteResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { userId } = currentUser(request);
      const quote = await deps.pricing.price(userId, request.body, null, askedLanguage(request) ?? 'en');
      const b = quote.breakdown!;
      return {
        error: null,
        data: {
          subtotal: b.subtotal.toString(), volumePercent: b.volumePercent, volumeDiscount: b.volumeDiscount.toString(),
          couponDiscount: b.couponDiscount.toString(), total: b.total.toString(), currency: 'USD' as const,
          trial: request.body.trial === true, trialAvailable: !(await deps.catalog.trialUsed(userId)),
        },
      };
    });

  app.get('/api/v1/payment/trial', { onRequest: requireUser, schema: { response: { 200: trialStatusResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { used: await deps.catalog.trialUsed(currentUser(request).userId) };
    });
}
