import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from './index';
import { userStore } from './user-slice';

const item = (id: string, unread = true, text = `n${id}`) =>
  ({ _id: id, text, unread, type: 'other' as const, timestamp: '2026-01-01T00:00:00Z' });
const s = () => useAppStore.getState();
const ids = () => s().notifications.map((n) => n._id);

// Spec §4 "Notifications: load; add or update; delete" — one test per action.
describe('notifications slice', () => {
  beforeEach(() => s().loadNotifications([]));

  it('load replaces the whole list', () => {
    s().loadNotifications([item('1'), item('2')]);
    s().loadNotifications([item('3')]);
    expect(ids()).toEqual(['3']);
  });

  it('add puts a new notification at the top (newest first)', () => {
    s().loadNotifications([item('2'), item('1')]);
    s().upsertNotification(item('3'));
    expect(ids()).toEqual(['3', '2', '1']);
  });

  it('update merges by _id and keeps its place (read after a click)', () => {
    s().loadNotifications([item('2'), item('1')]);
    s().upsertNotification(item('1', false));
    expect(s().notifications.map((n) => [n._id, n.unread, n.text])).toEqual([['2', true, 'n2'], ['1', false, 'n1']]);
    expect(s().notifications).toHaveLength(2);
  });

  it('update keeps the text shown: a realtime push carries it in the stored language, the page shows its own', () => {
    s().loadNotifications([item('1', true, 'Оплата прошла')]);
    s().upsertNotification(item('1', false, 'Payment completed'));
    expect(s().notifications.map((n) => [n.unread, n.text])).toEqual([[false, 'Оплата прошла']]);
  });

  it('delete removes by _id and leaves the others', () => {
    s().loadNotifications([item('1'), item('2'), item('3')]);
    s().deleteNotification('2');
    expect(ids()).toEqual(['1', '3']);
    s().deleteNotification('nope');
    expect(ids()).toEqual(['1', '3']);
  });

  it('tracks whether a user is signed in', () => {
    // The user is read from the cached GET /me (decision 020), not from this store.
    const users = userStore(new QueryClient());
    const s = () => users;
    s().setUser({ id: 'u', name: 'Ann', email: 'a@b.co', company_name: '', billing_address: '', vat_number: '', language: 'en', use2fa: false, recoveryCodesLeft: 0, isVerified: true, role: 'customer' });
    expect(s().user.isAuthenticated).toBe(true);
    s().setUser(null);
    expect(s().user).toEqual({ me: null, isAuthenticated: false });
  });
});
