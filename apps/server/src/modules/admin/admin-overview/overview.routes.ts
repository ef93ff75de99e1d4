import { overviewQuerySchema, overviewResponseSchema } from '@cellport/shared/schemas/admin/overview';
import type { App, AppContext } from '../../../context.js';
import { adminRateLimits } from '../admin-http.js';
import { overview } from './overview.service.js';

export function registerOverviewRoutes(app: App, ctx: AppContext): void {
  app.get('/overview', { config: adminRateLimits.read, schema: { querystring: overviewQuerySchema, response: { 200: overviewResponseSchema } } },
    async (r) => overview(ctx.db, r.query.days ?? 30));
}
