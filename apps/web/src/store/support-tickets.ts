import type { SupportTicketEvent, TicketDetail, TicketSummary } from '@cellport/shared/schemas/support';
import type { QueryClient } from '@tanstack/react-query';

/** Query keys of the customer's support tickets: the list, and each open conversation under ['support-ticket', id]. */
export const SUPPORT_KEYS = {
  list: ['support-tickets'],
  ticket: (id: string) => ['support-ticket', id],
} as const;

/**
 * The realtime 'support_ticket' event (an operator replied or changed the state) over the query cache (decision
 * 020): the ticket's summary replaces its row in the cached list (moved to the top, as the list is newest activity
 * first), and the cached conversation takes the new state and the message, once. Lists not fetched yet stay unfetched.
 * The caller then marks both stale, so what is on screen is refetched: an open conversation marks the reply read.
 */
export function applySupportTicketEvent(client: QueryClient, { ticket, message }: SupportTicketEvent): void {
  client.setQueryData<TicketSummary[]>(SUPPORT_KEYS.list, (list) =>
    (list ? [ticket, ...list.filter((t) => t._id !== ticket._id)] : undefined));
  client.setQueryData<TicketDetail>(SUPPORT_KEYS.ticket(ticket._id), (detail) => {
    if (!detail) return undefined;
    const messages = message && !detail.messages.some((m) => m._id === message._id) ? [...detail.messages, message] : detail.messages;
    return { ...detail, ...ticket, messages };
  });
}
