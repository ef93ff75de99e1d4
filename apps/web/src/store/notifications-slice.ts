import type { Notification } from '@cellport/shared/schemas/notifications';
import type { StateCreator } from 'zustand';

/**
 * Spec §4 client store actions for notifications: load; add or update; delete. The list is newest first, as the
 * server sends it: a new notification goes to the top, an update keeps its place. This slice is the list's one
 * home (decision 020): no query holds it; the shell's ETag poll (features/notifications) and realtime events
 * write it here.
 */
export interface NotificationsSlice {
  notifications: Notification[];
  loadNotifications: (list: Notification[]) => void;
  upsertNotification: (item: Notification) => void;
  deleteNotification: (id: string) => void;
}

export const createNotificationsSlice: StateCreator<NotificationsSlice> = (set) => ({
  notifications: [],
  loadNotifications: (list) => set({ notifications: list }),
  upsertNotification: (item) => set((s) => {
    const at = s.notifications.findIndex((n) => n._id === item._id);
    if (at === -1) return { notifications: [item, ...s.notifications] };
    const next = s.notifications.slice();
    // A text never changes once written; the one shown is in the page's language, while a realtime push carries
    // it in the customer's stored language (the socket does not know the page's): keep the one shown.
    next[at] = { ...next[at], ...item, text: next[at]!.text };
    return { notifications: next };
  }),
  deleteNotification: (id) => set((s) => ({ notifications: s.notifications.filter((n) => n._id !== id) })),
});
