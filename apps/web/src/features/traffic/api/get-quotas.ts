import { queryOptions } from '@tanstack/react-query';
import type { TrafficQuotaResponse } from '@cellport/shared/schemas/traffic';
import { apiGet } from '../../../lib/api';

/** GET /api/v1/traffic/quota: each port's limits and its traffic this month against its quota. */
export const portQuotasQuery = queryOptions({
  queryKey: ['traffic', 'quota'],
  queryFn: () => apiGet<TrafficQuotaResponse>('/traffic/quota'),
  staleTime: 60_000,
});
