import {
  cancelPendingResponseSchema, paymentOrderParamsSchema, paymentOrderResponseSchema, pendingPaymentParamsSchema, pendingPaymentsResponseSchema,
  simulatePaymentResponseSchema,
} from '@cellport/shared/schemas/payments';
import type { App } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { askedLanguage } from '../../lib/request-language.js';
import type { OrdersService } from './orders.service.js';
import type { PaymentRateLimit } from '../../lib/payment-rate-limit.js';
import type { PaymentSimulation } from './simulate-payment.js';

/** The customer's pending payments: list, one by reference, cancel, and (sandbox only) complete offline. */
export function registerPendingRoutes(app: App, deps: { orders: OrdersService; simulation: PaymentSimulation; limited: PaymentRateLimit }): void {
  const { orders, simulation, limited } = deps;

  app.get('/api/v1/pending-payments', { onRequest: requireUser, schema: { response: { 200: pendingPaymentsResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // Descriptions in the language the page asks for (Accept-Language), else as the order was written.
      return { data: await orders.pendingView(currentUser(request).userId, askedLanguage(request) ?? undefined) };
    });

  // One payment as it stands now (pending, completed, cancelled, expired, failed): the PayPal return page and the
  // payment banner ask it until the money is credited, instead of assuming it is still being confirmed.
  app.get('/api/v1/payment/orders/:reference',
    { onRequest: requireUser, schema: { params: paymentOrderParamsSchema, response: { 200: paymentOrderResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await orders.byReference(currentUser(request).userId, request.params.reference, askedLanguage(request) ?? undefined) };
    });

  app.delete('/api/v1/pending-payments/:id',
    { onRequest: requireUser, schema: { params: pendingPaymentParamsSchema, response: { 200: cancelPendingResponseSchema } } },
    async (request) => {
      await orders.cancel(currentUser(request).userId, request.params.id);
      return { error: null };
    });

  // 'Simulate payment': the offline stand-in for the customer's wallet or PayPal account, never in production.
  app.post('/api/v1/pending-payments/:id/simulate',
    { onRequest: requireUser, config: limited, schema: { params: pendingPaymentParamsSchema, response: { 200: simulatePaymentResponseSchema } } },
    async (request) => ({ error: null, data: await simulation.simulate(currentUser(request).userId, request.params.id) }));
}
