import { dollarsToMicro, paypalPendingRequestSchema, paypalPendingResponseSchema } from '@cellport/shared/schemas/payments';
import type { App } from '../../context.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { requestLanguage } from '../../lib/request-language.js';
import type { PaymentRateLimit } from '../../lib/payment-rate-limit.js';
import type { PaymentsRuntime } from './payments-runtime.js';
import { IPN_PATH, type PayPalPayments } from './paypal-payments.js';

export { IPN_PATH } from './paypal-payments.js';

/** PayPal Payments Standard: the pending record + checkout form, and the IPN listener. */
export function registerPayPalRoutes(app: App, deps: { paypal: PayPalPayments; rt: PaymentsRuntime; limited: PaymentRateLimit }): void {
  const { rt, paypal, limited } = deps;

  app.post('/api/v1/payment/paypal/pending',
    { onRequest: requireUser, config: limited, schema: { body: paypalPendingRequestSchema, response: { 200: paypalPendingResponseSchema } } },
    async (request) => {
      if (!rt.paypal.enabled) throw new AppError('PAYMENT_METHOD_DISABLED');
      const topUp = request.body.amount == null ? null : dollarsToMicro(request.body.amount);
      if (request.body.amount != null && topUp === null) throw new AppError('AMOUNT_INVALID');
      return paypal.createPending(currentUser(request).userId, request.body, topUp, requestLanguage(request));
    });

  // PayPal posts the IPN form-encoded; validation posts the exact bytes back, so this route keeps the raw body.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    scope.post(IPN_PATH, { config: { crossSite: true } }, async (request, reply) => {
      const raw = request.body;
      if (!Buffer.isBuffer(raw) || raw.length === 0) throw new AppError('VALIDATION');
      if (!rt.paypal.enabled) throw notFound(); // PayPal off: no IPN endpoint
      await paypal.receiveIpn(raw);
      return reply.code(200).send('');
    });
  });
}
