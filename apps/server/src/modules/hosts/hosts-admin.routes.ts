import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import {
  hostKeyResponseSchema, hostPatchRequestSchema, hostRequestSchema, hostResponseSchema,
} from '@cellport/shared/schemas/admin/hosts';
import { inventoryHostsResponseSchema } from '@cellport/shared/schemas/admin/host-inventory';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { HostsAdminService } from './hosts-admin.service.js';

/** The console's hosts (Inventory → Hosts): list, add, change, issue an agent key, delete. */
export function registerHostsAdminRoutes(app: App, hosts: HostsAdminService): void {
  const { read, write } = adminRateLimits;
  const byId = { params: adminIdParamsSchema };

  app.get('/hosts', { config: read, schema: { response: { 200: inventoryHostsResponseSchema } } }, async () => hosts.list());
  app.post('/hosts', { config: write, schema: { body: hostRequestSchema, response: { 200: hostResponseSchema } } },
    async (request) => ({ host: await hosts.create(actorOf(request), request.body) }));
  app.patch('/hosts/:id', { config: write, schema: { ...byId, body: hostPatchRequestSchema, response: { 200: hostResponseSchema } } },
    async (request) => ({ host: await hosts.update(actorOf(request), request.params.id, request.body) }));
  // The key is in this answer only; the audit entry says a key was issued, never which.
  app.post('/hosts/:id/key', { config: write, schema: { ...byId, response: { 200: hostKeyResponseSchema } } },
    async (request) => ({ key: (await hosts.issueKey(actorOf(request), request.params.id)).key }));
  app.delete('/hosts/:id', { config: write, schema: { ...byId, response: { 200: okResponseSchema } } },
    async (request) => { await hosts.remove(actorOf(request), request.params.id); return { ok: true as const }; });
}
