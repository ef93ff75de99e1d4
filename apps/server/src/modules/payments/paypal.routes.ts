import { dollarsToMicro, paypalPendingRequestSchema, paypalPendingResponseSchema } from '@cellport/shared/schemas/payments';
import type { App } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { effectivePayPalReceiver } from '../admin/admin-settings/operator-settings-cache.js';
import { requestLanguage } from '../catalog/request-language.js';
import { microToCentsUp, quoteOrder } from './order-pricing.js';
import type { OrdersService } from './orders.service.js';
import type { PaymentRouteDeps } from './payments.routes.js';
import { PAYPAL_SECRET_PREFIX, type PayPalPayments } from './paypal-payments.js';

export const IPN_PATH = '/api/v1/payment/paypal/ipn';

/** PayPal Payments Standard: the pending record + checkout form, and the IPN listener. */
export function registerPayPalRoutes(app: App, deps: PaymentRouteDeps & { orders: OrdersService; paypal: PayPalPayments }): void {
  const { ctx, rt, orders, paypal, limited } = deps;

  app.post('/api/v1/payment/paypal/pending',
    { onRequest: requireUser, config: limited, schema: { body: paypalPendingRequestSchema, response: { 200: paypalPendingResponseSchema } } },
    async (request) => {
      if (!rt.paypal.enabled) throw new AppError('PAYMENT_METHOD_DISABLED', 409);
      const userId = currentUser(request).userId;
      const lng = requestLanguage(request);
      const topUp = request.body.amount == null ? null : dollarsToMicro(request.body.amount);
      if (request.body.amount != null && topUp === null) throw new AppError('AMOUNT_INVALID', 422);
      const quote = await quoteOrder(ctx.db, userId, request.body, topUp, lng);
      const description = quote.kind === 'topup' && request.body.description?.trim() ? request.body.description.trim() : quote.description;
      const cents = microToCentsUp(quote.amount);
      const order = await orders.create(ctx.db, { userId, provider: 'paypal', quote: { ...quote, description }, providerAmount: cents, lng });
      const clientSecret = `${PAYPAL_SECRET_PREFIX}${order.id}`;
      const form = rt.paypal.checkoutForm({
        itemName: description, amountCents: Number(cents), custom: clientSecret, origin: ctx.config.publicUrl, notifyPath: IPN_PATH,
        receiverEmail: await effectivePayPalReceiver(ctx),
      });
      return {
        error: null,
        data: {
          _id: order.id, amount: order.amount.toString(), provider: 'Paypal' as const, tariff_id: quote.details.tariff_id,
          country_id: quote.details.country_id, basket: quote.details.basket, description, client_secret: clientSecret, modemCount: quote.details.modemCount,
        },
        form,
      };
    });

  // PayPal posts the IPN form-encoded; validation posts the exact bytes back, so this route keeps the raw body.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    scope.post(IPN_PATH, { config: { crossSite: true } }, async (request, reply) => {
      const raw = request.body;
      if (!Buffer.isBuffer(raw) || raw.length === 0) throw new AppError('VALIDATION', 400);
      if (!rt.paypal.enabled) throw new AppError('PAYMENT_METHOD_DISABLED', 404);
      await paypal.receiveIpn(raw);
      return reply.code(200).send('');
    });
  });
}
