import { adminSettingsPatchRequestSchema, adminSettingsResponseSchema } from '@cellport/shared/schemas/admin/settings';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { SettingsAdminService } from './settings-admin.service.js';

export function registerSettingsAdminRoutes(app: App, settings: SettingsAdminService): void {
  app.get('/settings', { config: adminRateLimits.read, schema: { response: { 200: adminSettingsResponseSchema } } }, async () => settings.get());
  app.patch('/settings', { config: adminRateLimits.write, schema: { body: adminSettingsPatchRequestSchema, response: { 200: adminSettingsResponseSchema } } },
    async (r) => settings.patch(actorOf(r), r.body));
}
