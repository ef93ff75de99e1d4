import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import {
  gatewayPatchRequestSchema, gatewayRequestSchema, gatewayResponseSchema, gatewaysResponseSchema,
} from '@cellport/shared/schemas/admin/gateways';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { GatewaysAdminService } from './gateways-admin.service.js';

/** The console's gateways, which hosts behind NAT are reached through (a host's pin is the hosts' PATCH). */
export function registerGatewaysAdminRoutes(app: App, gateways: GatewaysAdminService): void {
  const { read, write } = adminRateLimits;
  const byId = { params: adminIdParamsSchema };

  app.get('/gateways', { config: read, schema: { response: { 200: gatewaysResponseSchema } } }, async () => gateways.list());
  app.post('/gateways', { config: write, schema: { body: gatewayRequestSchema, response: { 200: gatewayResponseSchema } } },
    async (request) => ({ gateway: await gateways.create(actorOf(request), request.body) }));
  app.patch('/gateways/:id', { config: write, schema: { ...byId, body: gatewayPatchRequestSchema, response: { 200: gatewayResponseSchema } } },
    async (request) => ({ gateway: await gateways.update(actorOf(request), request.params.id, request.body) }));
  // Refused (IN_USE) while a host is pinned to it.
  app.delete('/gateways/:id', { config: write, schema: { ...byId, response: { 200: okResponseSchema } } },
    async (request) => { await gateways.remove(actorOf(request), request.params.id); return { ok: true as const }; });
}
