import {
  buyWithSavedCardResponseSchema, cardPaymentRequestSchema, createPaymentIntentResponseSchema, createSubscriptionRequestSchema,
  createSubscriptionResponseSchema, removeCardResponseSchema, sandboxConfirmRequestSchema, sandboxConfirmResponseSchema,
  savedCardParamsSchema, savedCardSchema, savedCardsResponseSchema, setupIntentResponseSchema,
} from '@cellport/shared/schemas/payments';
import { ERRORS } from '@cellport/shared';
import type { App } from '../../context.js';
import { CardProviderError, WebhookSignatureError } from '../../integrations/stripe/errors.js';
import { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { requestLanguage } from '../catalog/request-language.js';
import type { CardPayments } from './card-payments.js';
import { microToCentsUp, quoteOrder, type OrderInput } from './order-pricing.js';
import { ordersToApi } from './order-view.js';
import type { OrdersService } from './orders.service.js';
import { addressIndex } from './payment-accounts.js';
import type { PaymentRouteDeps } from './payments.routes.js';

const CENT = 10_000n;
const intentIdOf = (clientSecret: string) => clientSecret.split('_secret_')[0] ?? '';

/** Provider refusals → the customer's toast (spec §8: the provider's message); our own failures → 502 without details. */
function cardError(err: unknown): never {
  if (err instanceof CardProviderError) {
    if (err.isCardError) throw new AppError('CARD_DECLINED', 402, err.message || ERRORS.CARD_DECLINED);
    if (err.code === 'resource_missing' || err.code === 'not_found') throw new AppError('CARD_NOT_FOUND', 404);
    throw new AppError('CARD_PROVIDER_ERROR', 502);
  }
  throw err;
}

/** Card payments (spec §7): intents, subscriptions, saved cards, the Stripe webhook and the sandbox card form. */
export function registerCardRoutes(app: App, deps: PaymentRouteDeps & { orders: OrdersService; cards: CardPayments }): void {
  const { ctx, rt, orders, cards, limited } = deps;
  const provider = () => {
    if (!rt.card) throw new AppError('PAYMENT_METHOD_DISABLED', 409);
    return rt.card;
  };

  async function customer(userId: string) {
    await addressIndex(ctx.db, userId); // makes sure the payment_accounts row exists
    const user = await ctx.db.selectFrom('users').innerJoin('payment_accounts', 'payment_accounts.user_id', 'users.id')
      .select(['users.email', 'users.name', 'payment_accounts.card_customer_id']).where('users.id', '=', userId).executeTakeFirstOrThrow();
    let id = user.card_customer_id;
    if (!id) {
      id = await provider().ensureCustomer({ email: user.email, name: user.name, userId }).catch(cardError);
      await ctx.db.updateTable('payment_accounts').set({ card_customer_id: id }).where('user_id', '=', userId).execute();
    }
    return { id, email: user.email, name: user.name };
  }

  async function quote(userId: string, body: OrderInput & { amount?: number | string | null | undefined }, lng: ReturnType<typeof requestLanguage>) {
    const cents = body.amount === undefined || body.amount === null ? null : BigInt(body.amount);
    return quoteOrder(ctx.db, userId, body, cents === null ? null : cents * CENT, lng);
  }

  app.post('/api/v1/payment/stripe/create-payment-intent',
    { onRequest: requireUser, config: limited, schema: { body: cardPaymentRequestSchema, response: { 200: createPaymentIntentResponseSchema } } },
    async (request) => {
      const userId = currentUser(request).userId;
      const lng = requestLanguage(request);
      const q = await quote(userId, request.body, lng);
      const cus = await customer(userId);
      const amountCents = microToCentsUp(q.amount);
      const order = await orders.create(ctx.db, { userId, provider: 'card', quote: q, providerAmount: amountCents, lng });
      const intent = await provider().createPaymentIntent({
        amountCents: Number(amountCents), currency: 'usd', customerId: cus.id, metadata: { orderId: order.id, userId }, idempotencyKey: order.id,
      }).catch(cardError);
      await ctx.db.updateTable('payment_orders').set({ external_id: intent.id }).where('id', '=', order.id).execute();
      return { payment_intent: { id: intent.id, client_secret: intent.clientSecret }, email: cus.email, name: cus.name };
    });

  app.post('/api/v1/payment/stripe/create-subscription',
    { onRequest: requireUser, config: limited, schema: { body: createSubscriptionRequestSchema, response: { 200: createSubscriptionResponseSchema } } },
    async (request) => {
      const userId = currentUser(request).userId;
      const lng = requestLanguage(request);
      const q = await quote(userId, request.body, lng);
      const cus = await customer(userId);
      if (q.kind !== 'purchase' || q.tariff?.period !== 'month' || !q.tariff.recurring) {
        return { clientSecret: null, email: cus.email, error: ERRORS.SUBSCRIPTION_NOT_AVAILABLE };
      }
      const amountCents = microToCentsUp(q.amount);
      const order = await orders.create(ctx.db, { userId, provider: 'card', quote: q, providerAmount: amountCents, lng });
      const sub = await provider().createSubscription({
        customerId: cus.id, priceCents: Number(amountCents), interval: 'month', metadata: { orderId: order.id, userId }, idempotencyKey: order.id,
      }).catch(cardError);
      await ctx.db.transaction().execute(async (tx) => {
        await tx.insertInto('card_subscriptions').values({ id: sub.id, user_id: userId, order_id: order.id }).execute();
        await tx.updateTable('payment_orders').set({ external_id: intentIdOf(sub.clientSecret) }).where('id', '=', order.id).execute();
      });
      return { clientSecret: sub.clientSecret, email: cus.email, error: null };
    });

  app.post('/api/v1/payment/stripe/setup-payment-intent',
    { onRequest: requireUser, config: limited, schema: { response: { 200: setupIntentResponseSchema } } },
    async (request) => {
      const cus = await customer(currentUser(request).userId);
      const setup = await provider().createSetupIntent(cus.id).catch(cardError);
      return { clientSecret: setup.clientSecret };
    });

  app.get('/api/v1/payment/stripe/cards', { onRequest: requireUser, schema: { response: { 200: savedCardsResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!rt.card) return { data: [] };
      const cus = await customer(currentUser(request).userId);
      return { data: await provider().listSavedCards(cus.id).catch(cardError) };
    });

  app.post('/api/v1/payment/stripe/buy-with-saved-card/:id',
    { onRequest: requireUser, config: limited, schema: { params: savedCardParamsSchema, body: cardPaymentRequestSchema, response: { 200: buyWithSavedCardResponseSchema } } },
    async (request) => {
      const userId = currentUser(request).userId;
      const lng = requestLanguage(request);
      const q = await quote(userId, request.body, lng);
      const cus = await customer(userId);
      const amountCents = microToCentsUp(q.amount);
      const order = await orders.create(ctx.db, { userId, provider: 'card', quote: q, providerAmount: amountCents, lng });
      try {
        // The sandbox emits its event before answering; Stripe sends the webhook. Either way the credit comes from the event.
        const charge = await provider().chargeSavedCard({
          customerId: cus.id, paymentMethodId: request.params.id, amountCents: Number(amountCents), metadata: { orderId: order.id, userId }, idempotencyKey: order.id,
        });
        await ctx.db.updateTable('payment_orders').set({ external_id: charge.id }).where('id', '=', order.id).where('external_id', 'is', null).execute();
      } catch (err) {
        await ctx.db.updateTable('payment_orders').set({ status: 'failed' }).where('id', '=', order.id).where('status', '=', 'pending').execute();
        cardError(err);
      }
      const [payment] = await ordersToApi(ctx.db, [await orders.own(userId, order.id)]);
      return { error: null, data: { payment: payment! } };
    });

  app.delete('/api/v1/payment/stripe/:id',
    { onRequest: requireUser, schema: { params: savedCardParamsSchema, response: { 200: removeCardResponseSchema } } },
    async (request) => {
      const cus = await customer(currentUser(request).userId);
      await provider().detachPaymentMethod(cus.id, request.params.id).catch(cardError);
      return { error: null };
    });

  // The offline card form (no Stripe keys, never in production). Settles through the same event handler as Stripe.
  app.post('/api/v1/payment/stripe/sandbox/confirm',
    { onRequest: requireUser, config: limited, schema: { body: sandboxConfirmRequestSchema, response: { 200: sandboxConfirmResponseSchema } } },
    async (request) => {
      const card = rt.card;
      if (!(card instanceof SandboxCardProvider)) throw notFound();
      const intentId = intentIdOf(request.body.clientSecret);
      const order = await ctx.db.selectFrom('payment_orders').select('id')
        .where('external_id', '=', intentId).where('user_id', '=', currentUser(request).userId).executeTakeFirst();
      if (!order) throw notFound();
      await card.settle(request.body.clientSecret, request.body.cardNumber, request.body.expiry).catch((err: unknown) => {
        if (err instanceof CardProviderError && err.code !== 'resource_missing' && err.code !== 'payment_intent_unexpected_state') {
          throw new AppError('CARD_DECLINED', 402, ERRORS.CARD_DECLINED);
        }
        if (err instanceof CardProviderError) throw new AppError('PAYMENT_NOT_PENDING', 409);
        throw err;
      });
      return { status: 'succeeded' as const };
    });

  // The sandbox stand-in for Stripe.js confirmSetup: saves a card through a setup intent of this customer.
  app.post('/api/v1/payment/stripe/sandbox/confirm-setup',
    { onRequest: requireUser, config: limited, schema: { body: sandboxConfirmRequestSchema, response: { 200: savedCardSchema } } },
    async (request) => {
      const card = rt.card;
      if (!(card instanceof SandboxCardProvider)) throw notFound();
      const cus = await customer(currentUser(request).userId);
      return card.confirmSetup(request.body.clientSecret, request.body.cardNumber, cus.id, request.body.expiry).catch((err: unknown) => {
        if (err instanceof CardProviderError && err.code === 'resource_missing') throw notFound();
        if (err instanceof CardProviderError) throw new AppError('CARD_DECLINED', 402, ERRORS.CARD_DECLINED);
        throw err;
      });
    });

  // Stripe's webhook: the signature covers the exact bytes, so this route keeps the raw body (its own JSON parser,
  // encapsulated so every other route still gets parsed JSON). Cross-site by nature: Stripe posts it.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
    scope.post('/api/v1/payment/stripe/webhook', { config: { crossSite: true } }, async (request, reply) => {
      const raw = request.body;
      if (!Buffer.isBuffer(raw)) throw new AppError('VALIDATION', 400);
      if (!rt.card) throw new AppError('PAYMENT_METHOD_DISABLED', 404);
      let event;
      try {
        event = rt.card.verifyWebhook(raw, request.headers['stripe-signature'] as string | undefined);
      } catch (err) {
        if (err instanceof WebhookSignatureError) {
          ctx.log.warn({ reason: err.message }, 'Stripe webhook refused: bad signature; nothing booked');
          throw new AppError('VALIDATION', 400, 'Invalid signature');
        }
        ctx.log.warn({ err }, 'Stripe webhook refused: unreadable event; nothing booked');
        throw new AppError('VALIDATION', 400);
      }
      await cards.handle(event);
      return reply.send({ received: true });
    });
  });
}
