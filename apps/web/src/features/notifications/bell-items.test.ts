import { describe, expect, it } from 'vitest';
import { bellItems, unreadCount } from './bell-items';

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
});
