import type { SupportMessage, TicketDetail, TicketSummary } from '@cellport/shared/schemas/support';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { applySupportTicketEvent, SUPPORT_KEYS } from './support-tickets';

const summary = (id: string, state: TicketSummary['state'] = 'open', unread = false): TicketSummary => ({
  _id: id, number: 1000, subject: `About ${id}`, state, port: null, unread, lastMessageAt: '2026-11-25T10:00:00Z', createdAt: '2026-11-25T09:00:00Z',
});
const message = (id: string): SupportMessage => ({
  _id: id, author: 'operator', authorName: 'Olga', body: 'Try again now', attachments: [], createdAt: '2026-11-25T10:05:00Z',
});

let client: QueryClient;
beforeEach(() => { client = new QueryClient(); });

describe('applySupportTicketEvent', () => {
  it('moves the ticket to the top of the cached list with its new state', () => {
    client.setQueryData(SUPPORT_KEYS.list, [summary('a'), summary('b'), summary('c')]);
    applySupportTicketEvent(client, { ticket: summary('b', 'waiting', true) });
    expect(client.getQueryData<TicketSummary[]>(SUPPORT_KEYS.list)?.map((t) => [t._id, t.state, t.unread]))
      .toEqual([['b', 'waiting', true], ['a', 'open', false], ['c', 'open', false]]);
  });

  it('appends the reply to the cached conversation once, even when the event comes twice', () => {
    const detail: TicketDetail = { ...summary('a'), messages: [{ ...message('m1'), author: 'customer', authorName: null }] };
    client.setQueryData(SUPPORT_KEYS.ticket('a'), detail);
    const event = { ticket: summary('a', 'waiting', true), message: message('m2') };
    applySupportTicketEvent(client, event);
    applySupportTicketEvent(client, event);
    const after = client.getQueryData<TicketDetail>(SUPPORT_KEYS.ticket('a'));
    expect(after?.messages.map((m) => m._id)).toEqual(['m1', 'm2']);
    expect(after?.state).toBe('waiting');
  });

  it('plants nothing in lists or conversations that were never fetched', () => {
    applySupportTicketEvent(client, { ticket: summary('a'), message: message('m1') });
    expect(client.getQueryData(SUPPORT_KEYS.list)).toBeUndefined();
    expect(client.getQueryData(SUPPORT_KEYS.ticket('a'))).toBeUndefined();
  });
});
