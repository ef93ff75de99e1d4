import type { App, AppContext } from '../../context.js';
import { requireAdmin } from '../../plugins/session.js';
import { AdminsService } from './admin-admins/admins.service.js';
import { registerAdminsRoutes } from './admin-admins/admins.routes.js';
import { AdminCustomersService } from './admin-customers/customers.service.js';
import { registerCustomersRoutes } from './admin-customers/customers.routes.js';
import { registerCatalogAdminRoutes } from './admin-catalog/catalog-admin.routes.js';
import { CouponsAdminService } from './admin-coupons/coupons-admin.service.js';
import { registerCouponsAdminRoutes } from './admin-coupons/coupons-admin.routes.js';
import { registerInventoryRoutes } from './admin-inventory/inventory.routes.js';
import { PortsAdminService } from './admin-ports/ports-admin.service.js';
import { registerPortsAdminRoutes } from './admin-ports/ports-admin.routes.js';
import { PaymentsAdminService } from './admin-payments/payments-admin.service.js';
import { registerPaymentsAdminRoutes } from './admin-payments/payments-admin.routes.js';
import { registerNotificationsAdminRoutes } from './admin-notifications/notifications-admin.routes.js';
import { registerOverviewRoutes } from './admin-overview/overview.routes.js';
import { SettingsAdminService } from './admin-settings/settings-admin.service.js';
import { registerSettingsAdminRoutes } from './admin-settings/settings-admin.routes.js';
import { AdminPaymentsRepository } from './admin-payments/payments.repository.js';
import { AuditLog } from './audit/audit.service.js';
import { registerAuditRoutes } from './audit/audit.routes.js';

export const ADMIN_PREFIX = '/api/v1/admin';

/**
 * The operator console's API: every route under /api/v1/admin, admins only. The check runs onRequest (before body
 * validation), so a visitor gets 401 and a customer 403 whatever they send.
 */
export async function registerAdmin(app: App, ctx: AppContext): Promise<void> {
  await app.register(async (admin: App) => {
    admin.addHook('onRequest', requireAdmin);
    admin.addHook('onSend', async (_request, reply) => { reply.header('cache-control', 'no-store'); });
    const audit = new AuditLog(ctx.db);
    const payments = new AdminPaymentsRepository(ctx.db);
    registerAdminsRoutes(admin, new AdminsService(ctx.db, ctx.bus, audit));
    registerCustomersRoutes(admin, new AdminCustomersService(ctx, audit, payments));
    registerInventoryRoutes(admin, ctx, audit);
    registerPortsAdminRoutes(admin, new PortsAdminService(ctx.db, audit));
    registerCatalogAdminRoutes(admin, ctx, audit);
    registerCouponsAdminRoutes(admin, new CouponsAdminService(ctx.db, audit));
    registerPaymentsAdminRoutes(admin, new PaymentsAdminService(admin, ctx, audit));
    registerNotificationsAdminRoutes(admin, ctx, audit);
    registerSettingsAdminRoutes(admin, new SettingsAdminService(ctx, audit));
    registerOverviewRoutes(admin, ctx);
    registerAuditRoutes(admin, audit);
  }, { prefix: ADMIN_PREFIX });
}
