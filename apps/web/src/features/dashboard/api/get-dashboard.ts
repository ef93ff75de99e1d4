import { queryOptions } from '@tanstack/react-query';
import type { DashboardResponse } from '@cellport/shared/schemas/dashboard';
import type { ExchangeRatesResponse } from '@cellport/shared/schemas/payments';
import { apiGet } from '../../../lib/api';
import { exchangeRatesStore } from '../../../store/exchange-rates';

/** GET /api/v1/dashboard. Realtime notifications and payments mark it stale (features/realtime), so it refreshes. */
export const dashboardQuery = queryOptions({
  queryKey: ['dashboard'],
  queryFn: () => apiGet<DashboardResponse>('/dashboard'),
  staleTime: 30_000,
});

/**
 * GET /api/v1/exchange-rates for the total balance. Spec §8: a failure is silently ignored (no retry, no toast,
 * the total is simply not shown); a good answer also goes to the store's exchange_rates.
 */
export const exchangeRatesQuery = queryOptions({
  queryKey: ['exchange-rates'],
  queryFn: async () => {
    const rates = await apiGet<ExchangeRatesResponse>('/exchange-rates');
    exchangeRatesStore.getState().load(rates);
    return rates;
  },
  staleTime: 60_000,
  retry: false,
});
