import { operatorAlertSettingsPatchSchema, operatorAlertSettingsSchema } from '@cellport/shared/schemas/admin/alerts';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import { currentUser } from '../../plugins/session.js';
import type { OperatorAlertsService } from './operator-alerts.service.js';

/** GET and PATCH /admin/alerts: the signed-in operator's own channels for the farm's alerts. Each change is audited. */
export function registerOperatorAlertsAdminRoutes(app: App, alerts: OperatorAlertsService): void {
  app.get('/alerts', { config: adminRateLimits.read, schema: { response: { 200: operatorAlertSettingsSchema } } },
    async (request) => alerts.get(currentUser(request).userId));

  app.patch('/alerts', { config: adminRateLimits.write, schema: { body: operatorAlertSettingsPatchSchema, response: { 200: operatorAlertSettingsSchema } } },
    async (request) => alerts.update(actorOf(request), request.body));
}
