import {
  subscriptionCardRequestSchema, subscriptionParamsSchema, subscriptionResponseSchema, subscriptionsResponseSchema,
} from '@cellport/shared/schemas/subscriptions';
import type { App } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { requestLanguage } from '../../lib/request-language.js';
import type { SubscriptionsService } from './subscriptions.service.js';

const limited = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/**
 * The customer's card subscriptions (the dashboard's session; no API key): list, cancel at the period's end,
 * resume, and the card charged.
 */
export function registerSubscriptions(app: App, { subscriptions }: { subscriptions: SubscriptionsService }): void {
  app.get('/api/v1/subscriptions', { onRequest: requireUser, schema: { response: { 200: subscriptionsResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await subscriptions.list(currentUser(request).userId, requestLanguage(request)) };
    });
  const action = { onRequest: requireUser, config: limited, schema: { params: subscriptionParamsSchema, response: { 200: subscriptionResponseSchema } } };
  app.post('/api/v1/subscriptions/:id/cancel', action,
    async (request) => ({ data: await subscriptions.cancel(currentUser(request).userId, request.params.id) }));
  app.post('/api/v1/subscriptions/:id/resume', action,
    async (request) => ({ data: await subscriptions.resume(currentUser(request).userId, request.params.id) }));
  app.post('/api/v1/subscriptions/:id/card',
    { ...action, schema: { ...action.schema, body: subscriptionCardRequestSchema } },
    async (request) => ({ data: await subscriptions.changeCard(currentUser(request).userId, request.params.id, request.body.paymentMethodId) }));
}
