import type { Notification } from '@cellport/shared/schemas/notifications';

/** Spec §7: payment-type notifications are filtered out of the bell; newest first. */
export function bellItems(all: readonly Notification[]): Notification[] {
  return all.filter((n) => n.type !== 'payment').sort((a, b) => b.timestamp.localeCompare(a.timestamp));
}

export const unreadCount = (items: readonly Notification[]) => items.filter((n) => n.unread).length;

/**
 * A notification's link followed in this tab (wouter's Link calls onClick only for a plain left click; a
 * middle or modified click opens a new tab and changes nothing here): an unread one is marked read, and the
 * list's container — the bell's popover, the phone's dialog — closes so it does not cover the page it opens.
 */
export function followNotificationLink(item: Notification, act: { read: (item: Notification) => void; close?: (() => void) | undefined }): void {
  if (item.unread) act.read(item);
  act.close?.();
}
