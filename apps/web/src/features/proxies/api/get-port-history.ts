import type { PortHistory } from '@cellport/shared/schemas/port-history';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

/** GET /api/v1/modems/:id/history, only while the history is open (it is not part of the polled list). */
export const usePortHistory = (portId: string, enabled: boolean) => useQuery({
  queryKey: ['port-history', portId],
  queryFn: () => apiGet<PortHistory>(`/modems/${encodeURIComponent(portId)}/history`),
  enabled,
  staleTime: 60_000,
});
