import type { TrialStatusResponse } from '@cellport/shared/schemas/quote';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

/** Whether the customer has bought their one trial; asked only when the chosen tariff offers one. */
export function useTrialStatus(enabled: boolean) {
  return useQuery({ queryKey: ['trial-status'], queryFn: () => apiGet<TrialStatusResponse>('/payment/trial'), enabled });
}
