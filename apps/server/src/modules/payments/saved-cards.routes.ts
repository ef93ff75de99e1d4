import {
  removeCardResponseSchema, sandboxConfirmRequestSchema, savedCardParamsSchema, savedCardSchema, savedCardsResponseSchema,
  setupIntentResponseSchema,
} from '@cellport/shared/schemas/payments';
import type { App } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import type { PaymentRateLimit } from '../../lib/payment-rate-limit.js';
import type { SavedCards } from './saved-cards.js';

/** The customer's saved cards: add (setup intent), list, remove, and the sandbox's stand-in for Stripe.js confirmSetup. */
export function registerSavedCardRoutes(app: App, deps: { savedCards: SavedCards; limited: PaymentRateLimit }): void {
  const { savedCards, limited } = deps;

  app.post('/api/v1/payment/stripe/setup-payment-intent',
    { onRequest: requireUser, config: limited, schema: { response: { 200: setupIntentResponseSchema } } },
    async (request) => savedCards.setupIntent(currentUser(request).userId));

  app.get('/api/v1/payment/stripe/cards', { onRequest: requireUser, schema: { response: { 200: savedCardsResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await savedCards.list(currentUser(request).userId) };
    });

  app.delete('/api/v1/payment/stripe/:id',
    { onRequest: requireUser, schema: { params: savedCardParamsSchema, response: { 200: removeCardResponseSchema } } },
    async (request) => {
      await savedCards.remove(currentUser(request).userId, request.params.id);
      return { error: null };
    });

  // The sandbox stand-in for Stripe.js confirmSetup: saves a card through a setup intent of this customer.
  app.post('/api/v1/payment/stripe/sandbox/confirm-setup',
    { onRequest: requireUser, config: limited, schema: { body: sandboxConfirmRequestSchema, response: { 200: savedCardSchema } } },
    async (request) => savedCards.sandboxConfirmSetup(currentUser(request).userId, request.body));
}
