import {
  adminSubscriptionCancelSchema, adminSubscriptionResponseSchema, adminSubscriptionsQuerySchema, adminSubscriptionsResponseSchema,
  subscriptionParamsSchema,
} from '@cellport/shared/schemas/subscriptions';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { SubscriptionsService } from './subscriptions.service.js';

/** GET /admin/subscriptions (everyone's, or ?userId= one customer's) and POST /admin/subscriptions/:id/cancel (audited). */
export function registerSubscriptionsAdminRoutes(admin: App, subscriptions: SubscriptionsService): void {
  admin.get('/subscriptions', { config: adminRateLimits.read, schema: { querystring: adminSubscriptionsQuerySchema, response: { 200: adminSubscriptionsResponseSchema } } },
    async (request) => ({ items: await subscriptions.adminList(request.query) }));
  admin.post('/subscriptions/:id/cancel',
    { config: adminRateLimits.money, schema: { params: subscriptionParamsSchema, body: adminSubscriptionCancelSchema, response: { 200: adminSubscriptionResponseSchema } } },
    async (request) => ({ subscription: await subscriptions.adminCancel(actorOf(request), request.params.id, request.body) }));
}

