import type {
  AdminTicketDetail, AdminTicketsResponse, CannedReply, SupportSummary, TicketState,
} from '@cellport/shared/schemas/support';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ADMIN_KEY, adminDelete, adminGet, adminPatch, adminPost, toQuery } from './admin-client';

/** How often the console asks again: the inbox, its nav badge and an open ticket (customers' replies come this way). */
export const SUPPORT_POLL_MS = 5_000;

export type AssigneeFilter = 'me' | 'none' | 'all';

/** GET /admin/support/tickets?state=&assignee=&q=&page= */
export const useSupportTickets = (filter: { state: TicketState; assignee: AssigneeFilter; q: string; page: number }, pageSize = 25) =>
  useQuery({
    queryKey: [ADMIN_KEY, 'support', 'tickets', filter, pageSize],
    queryFn: () => adminGet<AdminTicketsResponse>(`/support/tickets${toQuery({
      state: filter.state, assignee: filter.assignee === 'all' ? undefined : filter.assignee, q: filter.q, page: filter.page, pageSize,
    })}`),
    placeholderData: keepPreviousData,
    refetchInterval: SUPPORT_POLL_MS,
  });

/** The nav badge's poll, on every console page. */
export const SUPPORT_BADGE_POLL_MS = 15_000;

/** GET /admin/support/summary: the counts of the inbox's state tabs (every 5 s) and the nav badge (every 15 s). */
export const useSupportSummary = (pollMs = SUPPORT_POLL_MS) =>
  useQuery({
    queryKey: [ADMIN_KEY, 'support', 'summary'],
    queryFn: () => adminGet<SupportSummary>('/support/summary'),
    refetchInterval: pollMs,
  });

/** GET /admin/support/tickets/:id (marks the customer's messages read for operators). */
export const useSupportTicket = (id: string) =>
  useQuery({
    queryKey: [ADMIN_KEY, 'support', 'ticket', id],
    queryFn: async () => (await adminGet<{ ticket: AdminTicketDetail }>(`/support/tickets/${encodeURIComponent(id)}`)).ticket,
    refetchInterval: SUPPORT_POLL_MS,
    staleTime: 0,
  });

/** GET /admin/support/operators: who a ticket can be assigned to. */
export const useSupportOperators = () =>
  useQuery({
    queryKey: [ADMIN_KEY, 'support', 'operators'],
    queryFn: async () => (await adminGet<{ items: Array<{ _id: string; name: string }> }>('/support/operators')).items,
    staleTime: 60_000,
  });

/** POST /admin/support/tickets/:id/messages; the state after it (default: waiting on the customer). */
export const replyAsOperator = async ({ id, ...body }: { id: string; body: string; attachments: string[]; state: TicketState }) =>
  (await adminPost<{ ticket: AdminTicketDetail }>(`/support/tickets/${encodeURIComponent(id)}/messages`, body)).ticket;

/** PATCH /admin/support/tickets/:id {state?, assigneeId?} */
export const updateTicket = async ({ id, ...body }: { id: string; state?: TicketState; assigneeId?: string | null }) =>
  (await adminPatch<{ ticket: AdminTicketDetail }>(`/support/tickets/${encodeURIComponent(id)}`, body)).ticket;

/** GET /admin/support/canned-replies */
export const useCannedReplies = () =>
  useQuery({
    queryKey: [ADMIN_KEY, 'support', 'canned'],
    queryFn: async () => (await adminGet<{ items: CannedReply[] }>('/support/canned-replies')).items,
  });

export const createCannedReply = (body: { title: string; body: string }) => adminPost<{ item: CannedReply }>('/support/canned-replies', body);
export const updateCannedReply = ({ id, ...body }: { id: string; title: string; body: string }) =>
  adminPatch<{ item: CannedReply }>(`/support/canned-replies/${encodeURIComponent(id)}`, body);
export const deleteCannedReply = (id: string) => adminDelete(`/support/canned-replies/${encodeURIComponent(id)}`);
