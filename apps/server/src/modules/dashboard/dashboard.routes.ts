import { dashboardResponseSchema } from '@cellport/shared/schemas/dashboard';
import type { App, AppContext } from '../../context.js';
import { readerLanguage } from '../../lib/request-language.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import type { DashboardService } from './dashboard.service.js';

/** GET /api/v1/dashboard: what the dashboard page shows at a glance. */
export function registerDashboard(app: App, ctx: AppContext, dashboard: DashboardService): void {
  app.get('/api/v1/dashboard', {
    onRequest: requireUser, schema: { tags: ['dashboard'], response: { 200: dashboardResponseSchema } },
  }, async (request, reply) => {
    const { userId } = currentUser(request);
    const summary = await dashboard.summary(userId, () => readerLanguage(request, ctx.languages, userId));
    reply.header('cache-control', 'no-store');
    return summary;
  });
}
