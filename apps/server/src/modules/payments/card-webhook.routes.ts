import type { App, AppContext } from '../../context.js';
import { WebhookSignatureError } from '../../integrations/stripe/errors.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { CardPayments } from './card-payments.js';
import type { PaymentsRuntime } from './payments-runtime.js';

/**
 * Stripe's webhook: the signature covers the exact bytes, so this route keeps the raw body (its own JSON parser,
 * encapsulated so every other route still gets parsed JSON). Cross-site by nature: Stripe posts it.
 */
export function registerCardWebhookRoute(app: App, deps: { cards: CardPayments; rt: PaymentsRuntime; log: AppContext['log'] }): void {
  const { cards, rt, log } = deps;
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
    scope.post('/api/v1/payment/stripe/webhook', { config: { crossSite: true } }, async (request, reply) => {
      const raw = request.body;
      if (!Buffer.isBuffer(raw)) throw new AppError('VALIDATION');
      if (!rt.card) throw notFound(); // no card provider: no Stripe webhook endpoint
      let event;
      try {
        event = rt.card.verifyWebhook(raw, request.headers['stripe-signature'] as string | undefined);
      } catch (err) {
        if (err instanceof WebhookSignatureError) {
          log.warn({ reason: err.message }, 'Stripe webhook refused: bad signature; nothing booked');
          throw new AppError('VALIDATION', 400, 'Invalid signature');
        }
        log.warn({ err }, 'Stripe webhook refused: unreadable event; nothing booked');
        throw new AppError('VALIDATION');
      }
      await cards.handle(event);
      return reply.send({ received: true });
    });
  });
}
