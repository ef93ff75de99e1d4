import type { CreateTicketRequest, TicketDetail, TicketMessageRequest, TicketSummary } from '@cellport/shared/schemas/support';
import { queryOptions } from '@tanstack/react-query';
import { SUPPORT_KEYS } from '../../../store/support-tickets';
import { apiGet, apiPost } from '../../../lib/api';

/** GET /support/tickets: the customer's tickets, latest activity first. */
export const ticketsQuery = queryOptions({
  queryKey: SUPPORT_KEYS.list,
  queryFn: async (): Promise<TicketSummary[]> => (await apiGet<{ tickets: TicketSummary[] }>('/support/tickets')).tickets,
});

/** GET /support/tickets/:id: the conversation (reading it marks the operator's replies read). */
export const ticketQuery = (id: string) =>
  queryOptions({
    queryKey: SUPPORT_KEYS.ticket(id),
    queryFn: async (): Promise<TicketDetail> => (await apiGet<{ ticket: TicketDetail }>(`/support/tickets/${encodeURIComponent(id)}`)).ticket,
  });

/** POST /support/tickets */
export const createTicket = async (body: CreateTicketRequest): Promise<TicketDetail> =>
  (await apiPost<{ ticket: TicketDetail }>('/support/tickets', body)).ticket;

/** POST /support/tickets/:id/messages (a reply reopens a closed ticket). */
export const replyToTicket = async ({ id, ...body }: TicketMessageRequest & { id: string }): Promise<TicketDetail> =>
  (await apiPost<{ ticket: TicketDetail }>(`/support/tickets/${encodeURIComponent(id)}/messages`, body)).ticket;

/** POST /support/tickets/:id/close */
export const closeTicket = async (id: string): Promise<TicketDetail> =>
  (await apiPost<{ ticket: TicketDetail }>(`/support/tickets/${encodeURIComponent(id)}/close`)).ticket;
