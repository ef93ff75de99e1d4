import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import { portParamsSchema } from '@cellport/shared/schemas/catalog';
import { replacementResponseSchema, replacementTooSoonSchema } from '@cellport/shared/schemas/replacement';
import type { App } from '../../context.js';
import { currentUser, requireAdmin, requireUser } from '../../plugins/session.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import { CUSTOMER_API_SECURITY } from '../openapi/index.js';
import type { ReplacementService } from './replacement.service.js';

/**
 * Replacement of a port's modem (issue 15, item 6): the customer's request from Your Proxies, the operator's
 * "return to service" for a modem in maintenance, and the automatic moves (job handler and planner on the queue;
 * registered after the jobs).
 */
export function registerReplacement(app: App, { replacement }: { replacement: ReplacementService }): void {

  app.post('/api/v1/modems/:id/replacement', {
    onRequest: requireUser,
    config: { apiKey: true, rateLimit: { max: 10, timeWindow: '1 minute', keyGenerator: (request: { user: { userId: string } | null; ip: string }) => request.user?.userId ?? request.ip } },
    schema: {
      tags: ['modems'], security: CUSTOMER_API_SECURITY, params: portParamsSchema,
      response: { 200: replacementResponseSchema, 429: replacementTooSoonSchema },
    },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return replacement.request(currentUser(request).userId, request.params.id, request.ip);
  });

  app.post('/api/v1/admin/modems/:id/return-to-service', {
    onRequest: requireAdmin, config: adminRateLimits.write,
    schema: { params: adminIdParamsSchema, response: { 200: okResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await replacement.returnToService(actorOf(request), request.params.id);
    return { ok: true as const };
  });
}
