import {
  adminNotificationRequestSchema, adminNotificationResponseSchema,
} from '@cellport/shared/schemas/admin/notifications';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { AuditLog } from '../audit/index.js';
import type { NotificationsService } from './notifications.service.js';

/**
 * POST /admin/notifications: a message to one customer or to all, each in their language, through the
 * notifications module's operator-message service. A broadcast is sent in chunks (its own transactions), so the
 * audit entry is written once the sending is done, with the number reached.
 */
export function registerNotificationsAdminRoutes(app: App, audit: AuditLog, notifications: NotificationsService): void {
  app.post('/notifications', {
    config: { rateLimit: { ...adminRateLimits.write.rateLimit, max: 20 } },
    schema: { body: adminNotificationRequestSchema, response: { 200: adminNotificationResponseSchema } },
  }, async (request) => {
    const { to, text } = request.body;
    const sent = await notifications.sendFromConsole(to, text, (tx, reached) => audit.record(tx, actorOf(request), {
      action: 'notification.send', targetType: to === 'all' ? 'all' : 'user', targetId: to === 'all' ? null : to,
      before: null, after: { to, text, sent: reached },
    }));
    return { sent };
  });
}
