import { successResponseSchema } from '@cellport/shared/schemas/notifications';
import {
  createWebhookEndpointRequestSchema, createWebhookEndpointResponseSchema, updateWebhookEndpointRequestSchema,
  webhookDeliveriesResponseSchema, webhookDeliveryParamsSchema, webhookDeliveryResponseSchema,
  webhookEndpointParamsSchema, webhookEndpointResponseSchema, webhookEndpointsResponseSchema,
} from '@cellport/shared/schemas/webhooks';
import type { App } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { CUSTOMER_API_SECURITY } from '../openapi/index.js';
import type { WebhooksService } from './webhooks.service.js';

/**
 * Customer webhooks (issue 16): endpoints, their delivery log, a test event and a redelivery. The customer API:
 * the session cookie or an API key as bearer. Its planner, delivery worker and modem events run in the background
 * (background.ts).
 */
export function registerWebhooks(app: App, { webhooks }: { webhooks: WebhooksService }): WebhooksService {
  app.decorate('webhooks', webhooks);

  const auth = { onRequest: requireUser, config: { apiKey: true } };
  const noStore = (reply: { header(name: string, value: string): unknown }) => reply.header('cache-control', 'no-store');
  const perCustomer = { rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: (request: { user: { userId: string } | null; ip: string }) => request.user?.userId ?? request.ip } };

  app.get('/api/v1/webhooks', {
    ...auth, schema: { tags: ['webhooks'], security: CUSTOMER_API_SECURITY, response: { 200: webhookEndpointsResponseSchema } },
  }, async (request, reply) => {
    noStore(reply);
    return { data: await webhooks.list(currentUser(request).userId) };
  });

  app.post('/api/v1/webhooks', {
    ...auth, config: { apiKey: true, ...perCustomer },
    schema: { tags: ['webhooks'], security: CUSTOMER_API_SECURITY, body: createWebhookEndpointRequestSchema, response: { 200: createWebhookEndpointResponseSchema } },
  }, async (request, reply) => {
    noStore(reply);
    return webhooks.create(currentUser(request).userId, request.body.url, request.body.eventTypes);
  });

  app.patch('/api/v1/webhooks/:id', {
    ...auth,
    schema: { tags: ['webhooks'], security: CUSTOMER_API_SECURITY, params: webhookEndpointParamsSchema, body: updateWebhookEndpointRequestSchema, response: { 200: webhookEndpointResponseSchema } },
  }, async (request) => ({ data: await webhooks.update(currentUser(request).userId, request.params.id, request.body) }));

  app.delete('/api/v1/webhooks/:id', {
    ...auth, schema: { tags: ['webhooks'], security: CUSTOMER_API_SECURITY, params: webhookEndpointParamsSchema, response: { 200: successResponseSchema } },
  }, async (request) => {
    await webhooks.remove(currentUser(request).userId, request.params.id);
    return { success: true };
  });

  app.get('/api/v1/webhooks/:id/deliveries', {
    ...auth, schema: { tags: ['webhooks'], security: CUSTOMER_API_SECURITY, params: webhookEndpointParamsSchema, response: { 200: webhookDeliveriesResponseSchema } },
  }, async (request, reply) => {
    noStore(reply);
    return { data: await webhooks.deliveries(currentUser(request).userId, request.params.id) };
  });

  app.post('/api/v1/webhooks/:id/test', {
    ...auth, config: { apiKey: true, ...perCustomer },
    schema: { tags: ['webhooks'], security: CUSTOMER_API_SECURITY, params: webhookEndpointParamsSchema, response: { 200: webhookDeliveryResponseSchema } },
  }, async (request) => ({ data: await webhooks.sendTest(currentUser(request).userId, request.params.id) }));

  app.post('/api/v1/webhooks/:id/deliveries/:deliveryId/redeliver', {
    ...auth, config: { apiKey: true, ...perCustomer },
    schema: { tags: ['webhooks'], security: CUSTOMER_API_SECURITY, params: webhookDeliveryParamsSchema, response: { 200: webhookDeliveryResponseSchema } },
  }, async (request) => ({
    data: await webhooks.redeliver(currentUser(request).userId, request.params.id, request.params.deliveryId),
  }));

  return webhooks;
}

declare module 'fastify' {
  interface FastifyInstance { webhooks: WebhooksService }
}
