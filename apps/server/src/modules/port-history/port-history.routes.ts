import { portParamsSchema } from '@cellport/shared/schemas/catalog';
import { portHistoryResponseSchema } from '@cellport/shared/schemas/port-history';
import type { App } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { CUSTOMER_API_SECURITY } from '../openapi/index.js';
import type { PortHistoryService } from './port-history.service.js';

/** GET /api/v1/modems/:id/history: the port's uptime and IP history; an API key may read it too. */
export function registerPortHistory(app: App, { portHistory: service }: { portHistory: PortHistoryService }): void {
  app.get('/api/v1/modems/:id/history', {
    onRequest: requireUser, config: { apiKey: true },
    schema: { tags: ['modems'], security: CUSTOMER_API_SECURITY, params: portParamsSchema, response: { 200: portHistoryResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return service.history(currentUser(request).userId, request.params.id);
  });
}
