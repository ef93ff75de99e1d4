import {
  buyWithSavedCardResponseSchema, cardPaymentRequestSchema, createPaymentIntentResponseSchema, createSubscriptionRequestSchema,
  createSubscriptionResponseSchema, sandboxConfirmRequestSchema, sandboxConfirmResponseSchema, savedCardParamsSchema,
} from '@cellport/shared/schemas/payments';
import type { App } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { requestLanguage } from '../../lib/request-language.js';
import type { CardCheckout } from './card-checkout.js';
import type { PaymentRateLimit } from '../../lib/payment-rate-limit.js';

/** Paying by card (spec §7): a payment intent, a subscription, a saved card, and the sandbox's card form. */
export function registerCardCheckoutRoutes(app: App, deps: { checkout: CardCheckout; limited: PaymentRateLimit }): void {
  const { checkout, limited } = deps;

  app.post('/api/v1/payment/stripe/create-payment-intent',
    { onRequest: requireUser, config: limited, schema: { body: cardPaymentRequestSchema, response: { 200: createPaymentIntentResponseSchema } } },
    async (request) => checkout.paymentIntent(currentUser(request).userId, request.body, requestLanguage(request)));

  app.post('/api/v1/payment/stripe/create-subscription',
    { onRequest: requireUser, config: limited, schema: { body: createSubscriptionRequestSchema, response: { 200: createSubscriptionResponseSchema } } },
    async (request) => checkout.subscription(currentUser(request).userId, request.body, requestLanguage(request)));

  app.post('/api/v1/payment/stripe/buy-with-saved-card/:id',
    { onRequest: requireUser, config: limited, schema: { params: savedCardParamsSchema, body: cardPaymentRequestSchema, response: { 200: buyWithSavedCardResponseSchema } } },
    async (request) => checkout.chargeSavedCard(currentUser(request).userId, request.params.id, request.body, requestLanguage(request)));

  // The offline card form (no Stripe keys, never in production). Settles through the same event handler as Stripe.
  app.post('/api/v1/payment/stripe/sandbox/confirm',
    { onRequest: requireUser, config: limited, schema: { body: sandboxConfirmRequestSchema, response: { 200: sandboxConfirmResponseSchema } } },
    async (request) => checkout.sandboxConfirm(currentUser(request).userId, request.body));
}
