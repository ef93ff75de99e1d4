import type { Notification } from '@cellport/shared/schemas/notifications';
import { apiGet, apiPost } from '../../../lib/api';
import { useAppStore } from '../../../store';

/**
 * Spec §4 "unread becomes read when clicked": GET /api/v1/notifications/:id marks it read on the server. The
 * store shows it read at once and takes the server's copy when it answers; a failure puts the unread mark back.
 */
export async function readNotification(item: Notification): Promise<void> {
  const { upsertNotification } = useAppStore.getState();
  upsertNotification({ ...item, unread: false });
  try {
    upsertNotification(await apiGet<Notification>(`/notifications/${encodeURIComponent(item._id)}`));
  } catch (error) {
    upsertNotification(item);
    throw error;
  }
}

/** POST /api/v1/notifications/read-all, then every notification in the store is read. */
export async function readAllNotifications(): Promise<void> {
  await apiPost<{ success: boolean }>('/notifications/read-all');
  const { notifications, loadNotifications } = useAppStore.getState();
  loadNotifications(notifications.map((n) => (n.unread ? { ...n, unread: false } : n)));
}
