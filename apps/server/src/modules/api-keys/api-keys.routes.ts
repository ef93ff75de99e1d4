import {
  apiKeyParamsSchema, apiKeysResponseSchema, createApiKeyRequestSchema, createApiKeyResponseSchema,
} from '@cellport/shared/schemas/api-keys';
import { successResponseSchema } from '@cellport/shared/schemas/notifications';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import type { ApiKeysService } from './api-keys.service.js';

/** Managing API keys needs the signed-in customer (cookie); a key cannot mint or list keys. */
export function registerApiKeys(app: App, ctx: AppContext, keys: ApiKeysService): void {
  ctx.sessions.apiKeyResolver = (key) => keys.resolve(key);

  app.get('/api/v1/api-keys', {
    onRequest: requireUser, schema: { tags: ['api-keys'], response: { 200: apiKeysResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { data: await keys.list(currentUser(request).userId) };
  });

  app.post('/api/v1/api-keys', {
    onRequest: requireUser,
    // Per customer (the session is resolved before the limit runs), not per IP: offices share addresses.
    config: { rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: (request) => request.user?.userId ?? request.ip } },
    schema: { tags: ['api-keys'], body: createApiKeyRequestSchema, response: { 200: createApiKeyResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return keys.create(currentUser(request).userId, request.body);
  });

  app.delete('/api/v1/api-keys/:id', {
    onRequest: requireUser, schema: { tags: ['api-keys'], params: apiKeyParamsSchema, response: { 200: successResponseSchema } },
  }, async (request) => {
    await keys.revoke(currentUser(request).userId, request.params.id);
    return { success: true };
  });
}
