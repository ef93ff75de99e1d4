import { useQuery } from '@tanstack/react-query';
import type { OverviewResponse } from '@cellport/shared/schemas/admin/overview';
import { ADMIN_KEY, adminGet, toQuery } from './admin-client';

/** GET /admin/overview?days= */
export const useOverview = (days: number) =>
  useQuery({ queryKey: [ADMIN_KEY, 'overview', days], queryFn: () => adminGet<OverviewResponse>(`/overview${toQuery({ days })}`) });
