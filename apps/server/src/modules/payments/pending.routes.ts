import {
  cancelPendingResponseSchema, pendingPaymentParamsSchema, pendingPaymentsResponseSchema, simulatePaymentResponseSchema,
} from '@cellport/shared/schemas/payments';
import type { App } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { ordersToApi } from './order-view.js';
import type { OrdersService } from './orders.service.js';
import type { PaymentRouteDeps } from './payments.routes.js';
import { PAYPAL_SECRET_PREFIX, type PayPalPayments } from './paypal-payments.js';
import type { Fulfilment } from './fulfilment.js';

/** The customer's pending payments: list, cancel, and (sandbox only) complete offline. */
export function registerPendingRoutes(app: App, deps: PaymentRouteDeps & { orders: OrdersService; fulfilment: Fulfilment; paypal: PayPalPayments }): void {
  const { ctx, rt, orders, fulfilment, paypal, limited } = deps;

  app.get('/api/v1/pending-payments', { onRequest: requireUser, schema: { response: { 200: pendingPaymentsResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await ordersToApi(ctx.db, await orders.pending(currentUser(request).userId)) };
    });

  app.delete('/api/v1/pending-payments/:id',
    { onRequest: requireUser, schema: { params: pendingPaymentParamsSchema, response: { 200: cancelPendingResponseSchema } } },
    async (request) => {
      await orders.cancel(currentUser(request).userId, request.params.id);
      return { error: null };
    });

  // 'Simulate payment': the offline stand-in for the customer's wallet or PayPal account, never in production. It
  // completes the payment through the same fulfilment as a real deposit or IPN.
  app.post('/api/v1/pending-payments/:id/simulate',
    { onRequest: requireUser, config: limited, schema: { params: pendingPaymentParamsSchema, response: { 200: simulatePaymentResponseSchema } } },
    async (request) => {
      const userId = currentUser(request).userId;
      const order = await orders.own(userId, request.params.id);
      const allowed = order.provider === 'crypto'
        ? !ctx.config.isProduction && (order.coin === 'btc' ? rt.btc : rt.usdt).mode === 'sandbox'
        : order.provider === 'paypal' && ctx.config.paypal.simulation;
      if (!allowed) throw new AppError('SIMULATION_DISABLED', 404);
      if (order.status !== 'pending') throw new AppError('PAYMENT_NOT_PENDING', 409);
      if (order.provider === 'crypto') {
        const missing = (order.coin === 'btc' ? order.provider_amount : order.amount) - order.received;
        await fulfilment.settleNow({
          userId, orderId: order.id, coin: order.coin!, amount: missing > 0n ? missing : 1n,
          reference: `simulated:${order.id}:${order.received}`, kind: 'simulated',
        });
      } else {
        await paypal.apply(order, rt.paypal.simulate({ custom: `${PAYPAL_SECRET_PREFIX}${order.id}`, amountCents: Number(order.provider_amount) }));
      }
      const [data] = await ordersToApi(ctx.db, [await orders.own(userId, order.id)]);
      return { error: null, data: data! };
    });
}
