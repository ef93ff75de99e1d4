import { describe, expect, it } from 'vitest';
import { bellItems, followNotificationLink, unreadCount } from './bell-items';

const n = (id: string, type: 'payment' | 'other', unread: boolean, timestamp: string) => ({ _id: id, text: id, type, unread, timestamp });

describe('bell items', () => {
  it('leaves payment notifications out, newest first, and counts the unread ones left', () => {
    const items = bellItems([
      n('a', 'other', true, '2026-01-01T10:00:00.000Z'),
      n('p', 'payment', true, '2026-01-03T10:00:00.000Z'),
      n('b', 'other', false, '2026-01-02T10:00:00.000Z'),
      n('c', 'other', true, '2026-01-04T10:00:00.000Z'),
    ]);
    expect(items.map((i) => i._id)).toEqual(['c', 'b', 'a']);
    expect(unreadCount(items)).toBe(2);
  });

  it('following a link marks an unread notification read and closes the bell; a read one only closes it', () => {
    const link = (id: string, unread: boolean) => ({ ...n(id, 'other', unread, '2026-01-01T10:00:00.000Z'), link: `/support/${id}` });
    const calls: string[] = [];
    const act = { read: (item: { _id: string }) => { calls.push(`read ${item._id}`); }, close: () => { calls.push('close'); } };
    followNotificationLink(link('t1', true), act);
    expect(calls).toEqual(['read t1', 'close']);
    calls.length = 0;
    followNotificationLink(link('t2', false), act);
    expect(calls).toEqual(['close']);
    calls.length = 0;
    followNotificationLink(link('t3', true), { read: act.read }); // a list without a container to close
    expect(calls).toEqual(['read t3']);
  });
});
