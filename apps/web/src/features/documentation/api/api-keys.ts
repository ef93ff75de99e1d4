import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '@cellport/shared/schemas/api-keys';
import { apiDelete, apiGet, apiPost } from '../../../lib/api';

const KEY = ['api-keys'] as const;

/** GET /api/v1/api-keys → the customer's keys (prefix only; the key itself is never sent again). */
export const useApiKeys = () => useQuery({ queryKey: KEY, queryFn: async () => (await apiGet<{ data: ApiKey[] }>('/api-keys')).data });

/** POST /api/v1/api-keys {name} → the new key, shown once. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiPost<{ data: Omit<ApiKey, 'lastUsedAt'>; key: string }>('/api-keys', { name }),
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
