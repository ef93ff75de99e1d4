import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import type { Settings } from '../../../store/settings-slice';
import type { ExchangeRatesResponse } from '@cellport/shared/schemas/payments';

/** GET /settings (spec §7: loaded at start). */
export const settingsQuery = queryOptions({
  queryKey: ['settings'],
  queryFn: () => apiGet<Settings>('/settings'),
  staleTime: 10 * 60_000,
});

/** GET /exchange-rates → {btc}; a failure is silently ignored by its users (spec §8). */
export const exchangeRatesQuery = queryOptions({
  queryKey: ['exchange-rates'],
  queryFn: () => apiGet<ExchangeRatesResponse>('/exchange-rates'),
  staleTime: 60_000,
  refetchInterval: 5 * 60_000,
  retry: false,
});
