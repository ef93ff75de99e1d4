import { overviewQuerySchema, overviewResponseSchema } from '@cellport/shared/schemas/admin/overview';
import type { App } from '../../../context.js';
import { adminRateLimits } from '../admin-http.js';
import type { OverviewCache } from './overview-cache.js';

export function registerOverviewRoutes(app: App, overview: OverviewCache): void {
  app.get('/overview', { config: adminRateLimits.read, schema: { querystring: overviewQuerySchema, response: { 200: overviewResponseSchema } } },
    async (r) => overview.get(r.query.days ?? 30));
}
