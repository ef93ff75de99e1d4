// Settings (decision 044): the operator's overrides of the configured values (the console's Settings page, audited)
// and GET /api/v1/settings, what the pages need to offer the payment methods. The overrides' cache is lib's
// (operator-settings-cache.ts), carried in the AppContext.
export { OPERATOR_SETTING_KEYS, SELLER_SETTING_KEYS, sellerOf, type OperatorOverrides, type OperatorSettingKey } from './operator-settings.js';
export { registerSettingsAdminRoutes } from './settings-admin.routes.js';
export { SettingsAdminService } from './settings-admin.service.js';
export { SettingsRepository } from './settings.repository.js';
export { registerSettings } from './settings.routes.js';
