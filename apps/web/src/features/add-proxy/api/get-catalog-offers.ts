import type { CatalogOffersResponse } from '@cellport/shared/schemas/catalog';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

/** What each choice buys (stock, measured speeds, UDP, ASN): answered from the server's memory, refreshed each minute. */
export const catalogOffersQuery = queryOptions({
  queryKey: ['catalog-offers'],
  queryFn: () => apiGet<CatalogOffersResponse>('/catalog/offers'),
  staleTime: 30_000,
  refetchInterval: 60_000,
});
