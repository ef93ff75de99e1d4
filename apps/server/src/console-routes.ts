import type { Services } from './composition.js';
import type { App } from './context.js';
import { requireAdmin } from './plugins/session.js';
import { registerCatalogAdminRoutes } from './modules/catalog/index.js';
import { registerAccountsAdminRoutes } from './modules/accounts/index.js';
import { registerCouponsAdminRoutes } from './modules/coupons/index.js';
import { registerHostsAdminRoutes, registerModemsAdminRoutes } from './modules/hosts/index.js';
import { registerGatewaysAdminRoutes } from './modules/gateways/index.js';
import { registerPortsAdminRoutes } from './modules/ports/index.js';
import { registerPaymentsAdminRoutes } from './modules/payments/index.js';
import { registerNotificationsAdminRoutes } from './modules/notifications/index.js';
import { registerSettingsAdminRoutes } from './modules/settings/index.js';
import { registerAuditAdminRoutes } from './modules/audit/index.js';
import { registerOverviewAdminRoutes } from './modules/console-overview/index.js';
import { registerOperatorsAdminRoutes } from './modules/operators/index.js';
import { registerOperatorAlertsAdminRoutes } from './modules/operator-alerts/index.js';
import { registerTelegramAdminRoutes } from './modules/telegram/index.js';
import { registerLegalAdminRoutes } from './modules/legal/index.js';
import { registerSupportAdminRoutes } from './modules/support/index.js';
import { registerSubscriptionsAdminRoutes } from './modules/subscriptions/index.js';

export const ADMIN_PREFIX = '/api/v1/admin';

/**
 * The operator console's API: every route under /api/v1/admin, admins only. Composition work beside app.ts, which
 * calls it with the customer registrars: each domain's console routes come from its face (`<d>-admin.routes.ts`). The check runs onRequest (before body
 * validation), so a visitor gets 401 and a customer 403 whatever they send.
 */
export async function registerConsoleRoutes(app: App, services: Services): Promise<void> {
  const { admin: operators, audit, notifications } = services;
  await app.register(async (admin: App) => {
    admin.addHook('onRequest', requireAdmin);
    admin.addHook('onSend', async (_request, reply) => { reply.header('cache-control', 'no-store'); });
    registerOperatorsAdminRoutes(admin, operators.admins);
    registerAccountsAdminRoutes(admin, operators.customers);
    registerHostsAdminRoutes(admin, operators.hosts);
    registerModemsAdminRoutes(admin, operators.modems);
    registerGatewaysAdminRoutes(admin, operators.gateways);
    registerPortsAdminRoutes(admin, operators.ports);
    registerCatalogAdminRoutes(admin, operators.catalog);
    registerCouponsAdminRoutes(admin, operators.coupons);
    registerPaymentsAdminRoutes(admin, operators.payments);
    registerNotificationsAdminRoutes(admin, audit, notifications);
    registerOperatorAlertsAdminRoutes(admin, services.alertSettings);
    registerSettingsAdminRoutes(admin, operators.settings);
    registerOverviewAdminRoutes(admin, operators.overview);
    registerAuditAdminRoutes(admin, audit);
    registerTelegramAdminRoutes(admin, audit, services.telegramBot);
    registerLegalAdminRoutes(admin, services.legal);
    await registerSupportAdminRoutes(admin, services.support);
    registerSubscriptionsAdminRoutes(admin, services.subscriptions);
  }, { prefix: ADMIN_PREFIX });
}
