import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../lib/api';
import { modemsStore } from './modems';
import { paymentsStore } from './payments';
import { rotationTagsStore } from './rotation-tags';
import { tariffsStore } from './tariffs';
import type { AccountView, CountryView, ModemView, PaymentView, RotationTagView, TariffView } from './store-types';

// Server state for the catalog, proxies and payments pages. Each fetch also loads the spec §4 store slice, so
// pages that read the store (and realtime updates that write to it) see the same list the cache holds.
// Query keys are shared: a purchase invalidates ['account'], ['modems'] and ['payments'] for every page at once.

export const accountQuery = queryOptions({
  queryKey: ['account'],
  queryFn: () => apiGet<AccountView>('/account'),
});

export const countriesQuery = queryOptions({
  queryKey: ['countries'],
  queryFn: () => apiGet<CountryView[]>('/countries'),
  staleTime: 5 * 60_000,
});

export const tariffsQuery = queryOptions({
  queryKey: ['tariffs'],
  queryFn: async () => {
    const tariffs = await apiGet<TariffView[]>('/tariffs');
    tariffsStore.getState().load(tariffs);
    return tariffs;
  },
  staleTime: 60_000,
});

export const rotationTagsQuery = (language: string) =>
  queryOptions({
    queryKey: ['rotation-tags', language],
    queryFn: async () => {
      const tags = await apiGet<RotationTagView[]>(`/modems/rotation-tags?lng=${encodeURIComponent(language)}`);
      rotationTagsStore.getState().load(tags);
      return tags;
    },
    staleTime: 5 * 60_000,
  });

const loadModems = async (path: string) => {
  const modems = await apiGet<ModemView[]>(path);
  modemsStore.getState().load(modems);
  return modems;
};

/** The customer's ports (country names in the request's Accept-Language). Invalidate with the ['modems'] prefix. */
export const modemsQuery = queryOptions({
  queryKey: ['modems'],
  queryFn: () => loadModems('/modems'),
});

/** The customer's ports with country names in the page language. */
export const localizedModemsQuery = (language: string) =>
  queryOptions({
    queryKey: ['modems', language],
    queryFn: () => loadModems(`/modems?lng=${encodeURIComponent(language)}`),
  });

export const paymentsQuery = queryOptions({
  queryKey: ['payments'],
  queryFn: async () => {
    const payments = await apiGet<PaymentView[]>('/payments');
    paymentsStore.getState().load(payments);
    return payments;
  },
});
