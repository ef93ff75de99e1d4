import {
  buyRequestSchema, IDEMPOTENCY_HEADER, paymentsResponseSchema, purchaseResponseSchema, renewRequestSchema,
} from '@cellport/shared/schemas/catalog';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { readerLanguage, requestLanguage } from '../../lib/request-language.js';
import { paymentRateLimit } from '../../lib/payment-rate-limit.js';
import type { PurchasesService } from './purchases.service.js';

function idempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || key.length > 200) throw new AppError('VALIDATION', 400, 'Idempotency-Key must be 1-200 characters');
  return key;
}

/** Buying and renewing from the balance, and the purchase history. */
export function registerPurchases(app: App, ctx: AppContext, { purchases }: { purchases: PurchasesService }): void {
  /** The purchase committed with its invoice: number it now, without holding up the answer. */
  const numbered = <T>(response: T): T => {
    ctx.invoiceNumbering.kick();
    return response;
  };
  const limited = paymentRateLimit(ctx.config.RATE_LIMIT_PAYMENTS_PER_MINUTE);

  app.post('/api/v1/payment/balance/buy',
    { onRequest: requireUser, config: limited, schema: { body: buyRequestSchema, response: { 200: purchaseResponseSchema } } },
    async (request) => numbered(await purchases.buy(currentUser(request).userId, request.body,
      { idempotencyKey: idempotencyKey(request), lng: requestLanguage(request) })));

  app.post('/api/v1/payment/balance/renew',
    { onRequest: requireUser, config: limited, schema: { body: renewRequestSchema, response: { 200: purchaseResponseSchema } } },
    async (request) => numbered(await purchases.renew(currentUser(request).userId, request.body,
      { idempotencyKey: idempotencyKey(request), lng: requestLanguage(request) })));

  app.get('/api/v1/payments', { onRequest: requireUser, schema: { response: { 200: paymentsResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { userId } = currentUser(request);
      return purchases.history(userId, await readerLanguage(request, ctx.languages, userId));
    });
}
