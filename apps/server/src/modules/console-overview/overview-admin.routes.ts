import { overviewQuerySchema, overviewResponseSchema } from '@cellport/shared/schemas/admin/overview';
import type { App } from '../../context.js';
import { adminRateLimits } from '../../lib/console-http.js';
import type { OverviewCache } from './overview-cache.js';

/** GET /admin/overview: the console's front page, kept a few seconds per period (overview-cache.ts). */
export function registerOverviewAdminRoutes(app: App, overview: OverviewCache): void {
  app.get('/overview', { config: adminRateLimits.read, schema: { querystring: overviewQuerySchema, response: { 200: overviewResponseSchema } } },
    async (r) => overview.get(r.query.days ?? 30));
}
