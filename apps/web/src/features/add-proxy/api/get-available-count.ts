import type { ModemCountResponse } from '@cellport/shared/schemas/catalog';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

export interface AvailabilityFilter {
  country_id: string;
  carrier_id: string | null;
  region_id: string | null;
  isShared: boolean;
  rotationInterval: number;
}

function countPath(f: AvailabilityFilter): string {
  const query = new URLSearchParams({ isShared: String(f.isShared), rotationInterval: String(f.rotationInterval) });
  if (f.carrier_id) query.set('carrier_id', f.carrier_id);
  if (f.region_id) query.set('region_id', f.region_id);
  return `/modems/count/${encodeURIComponent(f.country_id)}?${query}`;
}

/** How many ports can be bought with this filter; null filter = not asked yet. Refreshes while the page is open. */
export function useAvailableCount(filter: AvailabilityFilter | null) {
  return useQuery({
    queryKey: ['modems-count', filter],
    queryFn: () => apiGet<ModemCountResponse>(countPath(filter!)),
    enabled: filter !== null,
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}
