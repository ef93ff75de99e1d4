import { queryOptions } from '@tanstack/react-query';
import type { DashboardResponse } from '@cellport/shared/schemas/dashboard';
import { apiGet } from '../../../lib/api';

/** GET /api/v1/dashboard. Realtime notifications and payments mark it stale (features/realtime), so it refreshes. */
export const dashboardQuery = queryOptions({
  queryKey: ['dashboard'],
  queryFn: () => apiGet<DashboardResponse>('/dashboard'),
  staleTime: 30_000,
});

