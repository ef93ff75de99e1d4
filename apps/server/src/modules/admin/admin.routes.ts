import type { Services } from '../../composition.js';
import type { App } from '../../context.js';
import { requireAdmin } from '../../plugins/session.js';
import { registerCatalogAdminRoutes } from '../catalog/index.js';
import { registerAccountsAdminRoutes } from '../accounts/index.js';
import { registerCouponsAdminRoutes } from '../coupons/index.js';
import { registerHostsAdminRoutes, registerModemsAdminRoutes } from '../hosts/index.js';
import { registerGatewaysAdminRoutes } from '../gateways/index.js';
import { registerPortsAdminRoutes } from '../ports/index.js';
import { registerPaymentsAdminRoutes } from '../payments/index.js';
import { registerNotificationsAdminRoutes } from '../notifications/index.js';
import { registerSettingsAdminRoutes } from '../settings/index.js';
import { registerAuditAdminRoutes } from '../audit/index.js';
import { registerOverviewAdminRoutes } from '../console-overview/index.js';
import { registerOperatorsAdminRoutes } from '../operators/index.js';
import { registerOperatorAlertsAdminRoutes } from '../operator-alerts/index.js';
import { registerTelegramAdminRoutes } from '../telegram/index.js';
import { registerLegalAdminRoutes } from '../legal/index.js';
import { registerSupportAdminRoutes } from '../support/index.js';
import { registerSubscriptionsAdminRoutes } from '../subscriptions/index.js';

export const ADMIN_PREFIX = '/api/v1/admin';

/**
 * The operator console's API: every route under /api/v1/admin, admins only. The check runs onRequest (before body
 * validation), so a visitor gets 401 and a customer 403 whatever they send.
 */
export async function registerAdmin(app: App, services: Services): Promise<void> {
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
