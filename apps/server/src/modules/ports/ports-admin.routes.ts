import { adminIdParamsSchema } from '@cellport/shared/schemas/admin/common';
import { portActionRequestSchema, portActionResponseSchema } from '@cellport/shared/schemas/admin/ports';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { PortsAdminService } from './ports-admin.service.js';

/** POST /admin/ports/:id/suspend and /resume, each with an optional reason for the audit log. */
export function registerPortsAdminRoutes(app: App, ports: PortsAdminService): void {
  const schema = { params: adminIdParamsSchema, body: portActionRequestSchema, response: { 200: portActionResponseSchema } };
  app.post('/ports/:id/suspend', { config: adminRateLimits.write, schema },
    async (request) => ({ port: await ports.suspend(actorOf(request), request.params.id, request.body?.reason) }));
  app.post('/ports/:id/resume', { config: adminRateLimits.write, schema },
    async (request) => ({ port: await ports.resume(actorOf(request), request.params.id, request.body?.reason) }));
}
