import type { Language } from '@cellport/shared';
import { NOTIFICATIONS_PAGE, type Notification } from '@cellport/shared/schemas/notifications';
import type { Database } from '../../db/database.js';
import { bumpPollVersion } from '../../lib/poll-versions.js';
import { toNotification } from './notifications.service.js';

const COLUMNS = ['id', 'text', 'text_key', 'params', 'unread', 'type', 'created_at'] as const;

/**
 * A customer's notifications; every query is scoped by the user id. Texts are rendered in the reader's `language`
 * (the request's, see readerLanguage); without one, in the language the customer had when each was stored.
 */
export class NotificationsRepository {
  constructor(private readonly db: Database) {}

  async latest(userId: string, limit = NOTIFICATIONS_PAGE, language?: Language): Promise<Notification[]> {
    const rows = await this.db.selectFrom('notifications').select(COLUMNS)
      .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => toNotification(row, language));
  }

  /** Marks one read and returns it; null when it is not this customer's. Bumps the version only on a change. */
  async markRead(userId: string, id: string, language?: Language): Promise<Notification | null> {
    return this.db.transaction().execute(async (tx) => {
      const changed = await tx.updateTable('notifications').set({ unread: false })
        .where('id', '=', id).where('user_id', '=', userId).where('unread', '=', true)
        .returning(COLUMNS).executeTakeFirst();
      if (changed) {
        // The push goes to every open dashboard, whatever its language: the stored text (toNotification).
        await bumpPollVersion(tx, 'notifications', userId, { event: { name: 'notification', data: toNotification(changed) } });
        return toNotification(changed, language);
      }
      const row = await tx.selectFrom('notifications').select(COLUMNS)
        .where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return row ? toNotification(row, language) : null;
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
