import { auditQuerySchema, auditResponseSchema } from '@cellport/shared/schemas/admin/audit';
import type { App } from '../../context.js';
import { adminRateLimits } from '../../lib/console-http.js';
import type { AuditLog } from './audit.service.js';

/** GET /admin/audit: the searchable audit log, newest first. */
export function registerAuditAdminRoutes(app: App, audit: AuditLog): void {
  app.get('/audit', { config: adminRateLimits.read, schema: { querystring: auditQuerySchema, response: { 200: auditResponseSchema } } },
    async (request) => audit.search(request.query));
}
