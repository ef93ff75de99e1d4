import {
  adminsResponseSchema, createAdminRequestSchema, createAdminResponseSchema,
} from '@cellport/shared/schemas/admin/admins';
import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import type { App } from '../../../context.js';
import { actorOf, adminRateLimits } from '../admin-http.js';
import type { AdminsService } from './admins.service.js';

export function registerAdminsRoutes(app: App, admins: AdminsService): void {
  app.get('/admins', { config: adminRateLimits.read, schema: { response: { 200: adminsResponseSchema } } },
    async () => ({ items: await admins.list() }));
  app.post('/admins', { config: adminRateLimits.write, schema: { body: createAdminRequestSchema, response: { 200: createAdminResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store'); // a generated password is in the answer
      return admins.create(actorOf(request), request.body.email, request.body.name);
    });
  app.delete('/admins/:id', { config: adminRateLimits.write, schema: { params: adminIdParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await admins.demote(actorOf(request), request.params.id);
      return { ok: true as const };
    });
}
