import {
  adminNotificationRequestSchema, adminNotificationResponseSchema,
} from '@cellport/shared/schemas/admin/notifications';
import type { App, AppContext } from '../../../context.js';
import { AppError } from '../../../lib/app-error.js';
import type { NotificationsService } from '../../notifications/notifications.service.js';
import { actorOf, adminRateLimits } from '../admin-http.js';
import type { AuditLog } from '../audit/audit.service.js';

/**
 * POST /admin/notifications: a message to one customer or to all, each in their language, through the
 * notifications module's operator-message service. A broadcast is sent in chunks (its own transactions), so the
 * audit entry is written once the sending is done, with the number reached.
 */
export function registerNotificationsAdminRoutes(app: App, ctx: AppContext, audit: AuditLog, notifications: NotificationsService): void {
  app.post('/notifications', {
    config: { rateLimit: { ...adminRateLimits.write.rateLimit, max: 20 } },
    schema: { body: adminNotificationRequestSchema, response: { 200: adminNotificationResponseSchema } },
  }, async (request) => {
    const { to, text } = request.body;
    if (to !== 'all') {
      const user = await ctx.db.selectFrom('users').select('id').where('id', '=', to).executeTakeFirst();
      if (!user) throw new AppError('CUSTOMER_NOT_FOUND');
    }
    const sent = await notifications.sendOperatorMessage(to === 'all' ? 'all' : [to], text);
    await ctx.db.transaction().execute((tx) => audit.record(tx, actorOf(request), {
      action: 'notification.send', targetType: to === 'all' ? 'all' : 'user', targetId: to === 'all' ? null : to,
      before: null, after: { to, text, sent },
    }));
    return { sent };
  });
}
