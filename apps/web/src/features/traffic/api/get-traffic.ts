import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TrafficResponse } from '@cellport/shared/schemas/traffic';
import { apiGet } from '../../../lib/api';

/** GET /api/v1/traffic?{search} (search from lib/range trafficSearch; the CSV link uses the same one). */
export const trafficQuery = (search: string) =>
  queryOptions({
    queryKey: ['traffic', search],
    queryFn: () => apiGet<TrafficResponse>(`/traffic?${search}`),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
