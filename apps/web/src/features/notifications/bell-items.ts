import type { Notification } from '@cellport/shared/schemas/notifications';

/** Spec §7: payment-type notifications are filtered out of the bell; newest first. */
export function bellItems(all: readonly Notification[]): Notification[] {
  return all.filter((n) => n.type !== 'payment').sort((a, b) => b.timestamp.localeCompare(a.timestamp));
}

export const unreadCount = (items: readonly Notification[]) => items.filter((n) => n.unread).length;
