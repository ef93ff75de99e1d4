import type { PendingPaymentsResponse } from '@cellport/shared/schemas/payments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../lib/api';
import type { AccountView, CountryView, ModemView, PaymentView, RotationTagView, TariffView } from './store-types';

// Server state that several features read: the query cache is its one home (decision 020). The spec §4 store
// actions (payments.ts, modems.ts, tariffs.ts, …) change these same cache entries; nothing copies them elsewhere.
// Query keys are shared: a purchase invalidates ['account'], ['modems'] and ['payments'] for every page at once.

/** Spec §3 "Account": {btc, usdt} × {balance, address}; balances are strings of integer minor units. */
export const accountQuery = queryOptions({
  queryKey: ['account'],
  queryFn: () => apiGet<AccountView>('/account'),
});

/** The balances as the shell shows them: null until GET /account answers, or when it fails (the header shows '—'). */
export const useAccount = (): AccountView | null => useQuery({ ...accountQuery, staleTime: 15_000 }).data ?? null;

export const countriesQuery = queryOptions({
  queryKey: ['countries'],
  queryFn: () => apiGet<CountryView[]>('/countries'),
  staleTime: 5 * 60_000,
});

export const tariffsQuery = queryOptions({
  queryKey: ['tariffs'],
  queryFn: () => apiGet<TariffView[]>('/tariffs'),
  staleTime: 60_000,
});

export const rotationTagsQuery = (language: string) =>
  queryOptions({
    queryKey: ['rotation-tags', language],
    queryFn: () => apiGet<RotationTagView[]>(`/modems/rotation-tags?lng=${encodeURIComponent(language)}`),
    staleTime: 5 * 60_000,
  });

/** The customer's ports (country names in the request's Accept-Language). Invalidate with the ['modems'] prefix. */
export const modemsQuery = queryOptions({
  queryKey: ['modems'],
  queryFn: () => apiGet<ModemView[]>('/modems'),
});

/** The customer's ports with country names in the page language. */
export const localizedModemsQuery = (language: string) =>
  queryOptions({
    queryKey: ['modems', language],
    queryFn: () => apiGet<ModemView[]>(`/modems?lng=${encodeURIComponent(language)}`),
  });

export const paymentsQuery = queryOptions({
  queryKey: ['payments'],
  queryFn: () => apiGet<PaymentView[]>('/payments'),
});

/** GET /pending-payments: every pending payment of the customer (crypto, card, PayPal). */
export const pendingPaymentsQuery = queryOptions({
  queryKey: ['pending-payments'],
  queryFn: async () => (await apiGet<PendingPaymentsResponse>('/pending-payments')).data,
});
