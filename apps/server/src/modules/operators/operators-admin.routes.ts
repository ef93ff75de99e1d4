import {
  adminsResponseSchema, createAdminRequestSchema, createAdminResponseSchema,
} from '@cellport/shared/schemas/admin/admins';
import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { OperatorsService } from './operators.service.js';

/** The console's Admins page: GET/POST /admin/admins, DELETE /admin/admins/:id. */
export function registerOperatorsAdminRoutes(app: App, operators: OperatorsService): void {
  app.get('/admins', { config: adminRateLimits.read, schema: { response: { 200: adminsResponseSchema } } },
    async () => ({ items: await operators.list() }));
  app.post('/admins', { config: adminRateLimits.write, schema: { body: createAdminRequestSchema, response: { 200: createAdminResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store'); // a generated password is in the answer
      return operators.create(actorOf(request), request.body.email, request.body.name);
    });
  app.delete('/admins/:id', { config: adminRateLimits.write, schema: { params: adminIdParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await operators.demote(actorOf(request), request.params.id);
      return { ok: true as const };
    });
}
