import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TelegramLink, TelegramNotificationKind, TelegramStatus } from '@cellport/shared/schemas/telegram';
import { api, apiDelete, apiGet, apiPost } from '../../../lib/api';

const KEY = ['telegram'] as const;

/** GET /api/v1/telegram → linked or not, the bot, the kinds sent there. Polled while a link waits for /start. */
export const useTelegram = (waitingForLink: boolean) => useQuery({
  queryKey: KEY,
  queryFn: () => apiGet<TelegramStatus>('/telegram'),
  refetchInterval: (query) => (waitingForLink && !query.state.data?.linked ? 2000 : false),
});

/** POST /api/v1/telegram/link → a one-time deep link to the bot. */
export const useCreateTelegramLink = () => useMutation({ mutationFn: () => apiPost<TelegramLink>('/telegram/link') });

/** DELETE /api/v1/telegram. */
export function useUnlinkTelegram() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiDelete<unknown>('/telegram'),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** PUT /api/v1/telegram/preferences {kinds} → the new status. */
export function useTelegramKinds() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (kinds: TelegramNotificationKind[]) => api<TelegramStatus>('PUT', '/telegram/preferences', { kinds }),
    onSuccess: (status) => client.setQueryData(KEY, status),
  });
}
