import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from './index';

const item = (id: string, unread = true) => ({ _id: id, text: `n${id}`, unread, type: 'other' as const, timestamp: '2026-01-01T00:00:00Z' });

describe('notifications slice', () => {
  beforeEach(() => useAppStore.getState().loadNotifications([]));

  it('loads, adds, updates by _id and deletes', () => {
    const s = () => useAppStore.getState();
    s().loadNotifications([item('1'), item('2')]);
    s().upsertNotification(item('3'));
    s().upsertNotification(item('1', false));
    expect(s().notifications.map((n) => [n._id, n.unread])).toEqual([['1', false], ['2', true], ['3', true]]);
    s().deleteNotification('2');
    expect(s().notifications.map((n) => n._id)).toEqual(['1', '3']);
  });

  it('tracks whether a user is signed in', () => {
    useAppStore.getState().setUser({ id: 'u', name: 'Ann', email: 'a@b.co', company_name: '', language: 'en', use2fa: false, isVerified: true, role: 'customer' });
    expect(useAppStore.getState().user.isAuthenticated).toBe(true);
    useAppStore.getState().setUser(null);
    expect(useAppStore.getState().user).toEqual({ me: null, isAuthenticated: false });
  });
});
