import type { SessionInfo } from '@cellport/shared/schemas/account';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '../../../lib/api';

export const sessionsQueryKey = ['me', 'sessions'] as const;

export const useSessions = () =>
  useQuery({ queryKey: sessionsQueryKey, queryFn: () => apiGet<SessionInfo[]>('/me/sessions') });

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete<{ success: boolean }>(`/me/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}

export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<{ success: boolean }>('/me/sessions/revoke-others', {}),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}

/** Sign out everywhere, this browser too; `revokeAccess` also revokes the API keys and unlinks Telegram. */
export function useSignOutEverywhere() {
  return useMutation({
    mutationFn: (revokeAccess: boolean) => apiPost<{ success: boolean }>('/me/sessions/revoke-all', { revokeAccess }),
  });
}
