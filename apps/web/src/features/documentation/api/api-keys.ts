import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, ApiKeyScope } from '@cellport/shared/schemas/api-keys';
import { apiDelete, apiGet, apiPost } from '../../../lib/api';

const KEY = ['api-keys'] as const;

/** GET /api/v1/api-keys → the customer's keys (prefix only; the key itself is never sent again). */
export const useApiKeys = () => useQuery({ queryKey: KEY, queryFn: async () => (await apiGet<{ data: ApiKey[] }>('/api-keys')).data });

export interface NewApiKey { name: string; scope: ApiKeyScope; monthlySpendLimit: string | null }

/** POST /api/v1/api-keys {name, scope, monthlySpendLimit} → the new key, shown once. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: NewApiKey) => apiPost<{ data: Omit<ApiKey, 'lastUsedAt' | 'spentThisMonth'>; key: string }>('/api-keys', key),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** DELETE /api/v1/api-keys/:id: scripts using it stop working at once. */
export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete<unknown>(`/api-keys/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
