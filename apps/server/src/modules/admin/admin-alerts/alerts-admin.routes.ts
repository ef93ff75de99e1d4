import { operatorAlertSettingsPatchSchema, operatorAlertSettingsSchema } from '@cellport/shared/schemas/admin/alerts';
import type { App, AppContext } from '../../../context.js';
import { currentUser } from '../../../plugins/session.js';
import { actorOf, adminRateLimits } from '../admin-http.js';
import type { AuditLog } from '../audit/audit.service.js';
import type { AlertSettingsRepository } from './alert-settings.repository.js';

/**
 * GET and PATCH /admin/alerts (issue 28, item 8): the signed-in operator's own channels for the farm's alerts beside
 * the console's bell: e-mail and their linked Telegram chat. Each change is audited.
 */
export function registerAlertsAdminRoutes(app: App, ctx: AppContext, audit: AuditLog, settings: AlertSettingsRepository): void {
  app.get('/alerts', { config: adminRateLimits.read, schema: { response: { 200: operatorAlertSettingsSchema } } },
    async (request) => settings.get(currentUser(request).userId));

  app.patch('/alerts', { config: adminRateLimits.write, schema: { body: operatorAlertSettingsPatchSchema, response: { 200: operatorAlertSettingsSchema } } },
    async (request) => {
      const userId = currentUser(request).userId;
      const { before, after } = await settings.update(userId, request.body);
      await ctx.db.transaction().execute((tx) => audit.record(tx, actorOf(request), {
        action: 'alerts.update', targetType: 'admin', targetId: userId,
        before: { email: before.email, telegram: before.telegram }, after: { email: after.email, telegram: after.telegram },
      }));
      return after;
    });
}
