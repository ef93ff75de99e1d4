import { NOTIFICATIONS_PAGE, type Notification } from '@cellport/shared/schemas/notifications';
import type { Database } from '../../db/database.js';
import { bumpPollVersion } from '../../lib/poll-versions.js';
import { toNotification } from './notifications.service.js';

const COLUMNS = ['id', 'text', 'unread', 'type', 'created_at'] as const;

/** A customer's notifications; every query is scoped by the user id. */
export class NotificationsRepository {
  constructor(private readonly db: Database) {}

  async latest(userId: string, limit = NOTIFICATIONS_PAGE): Promise<Notification[]> {
    const rows = await this.db.selectFrom('notifications').select(COLUMNS)
      .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toNotification);
  }

  /** Marks one read and returns it; null when it is not this customer's. Bumps the version only on a change. */
  async markRead(userId: string, id: string): Promise<Notification | null> {
    return this.db.transaction().execute(async (tx) => {
      const changed = await tx.updateTable('notifications').set({ unread: false })
        .where('id', '=', id).where('user_id', '=', userId).where('unread', '=', true)
        .returning(COLUMNS).executeTakeFirst();
      if (changed) {
        const notification = toNotification(changed);
        await bumpPollVersion(tx, 'notifications', userId, { event: { name: 'notification', data: notification } });
        return notification;
      }
      const row = await tx.selectFrom('notifications').select(COLUMNS)
        .where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return row ? toNotification(row) : null;
    });
  }

  async markAllRead(userId: string): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const changed = await tx.updateTable('notifications').set({ unread: false })
        .where('user_id', '=', userId).where('unread', '=', true).returning('id').execute();
      if (changed.length) await bumpPollVersion(tx, 'notifications', userId);
      return changed.length;
    });
  }
}
