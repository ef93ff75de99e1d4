import type { Port } from '@cellport/shared/schemas/catalog';
import type { ReplacementResponse } from '@cellport/shared/schemas/replacement';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api';

/**
 * Asks for another modem for a port (at most once in 24 h; free). The port keeps its login, password and term; its
 * host, ports and IP change, so the list is refetched. When no modem is free the port waits and moves later.
 */
export function useReplacePort(port: Pick<Port, '_id'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<ReplacementResponse>(`/modems/${encodeURIComponent(port._id)}/replacement`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['modems'] }),
  });
}
