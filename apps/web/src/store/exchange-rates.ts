import type { ExchangeRatesResponse } from '@cellport/shared/schemas/payments';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../lib/api';

/** Spec §3 "Exchange rates": btc = USD per BTC as a decimal string ("64250.12"), null until known. */
export interface ExchangeRates {
  btc: string | null;
}

/** An answer without a rate keeps the last good one. */
const keepLastGood = (old: ExchangeRates | undefined, next: ExchangeRates): ExchangeRates => ({ btc: next.btc ?? old?.btc ?? null });

/**
 * GET /exchange-rates → {btc}, the one home of the rate (decision 020). Spec §8: a failure is silently ignored (no
 * retry, no toast; the cache keeps the last good answer and the total is simply not shown before the first one).
 */
export const exchangeRatesQuery = queryOptions({
  queryKey: ['exchange-rates'],
  queryFn: () => apiGet<ExchangeRatesResponse>('/exchange-rates'),
  staleTime: 60_000,
  refetchInterval: 5 * 60_000,
  retry: false,
  structuralSharing: (old, next) => keepLastGood(old as ExchangeRates | undefined, next as ExchangeRates),
});

export interface ExchangeRatesState {
  exchangeRates: ExchangeRates;
  /** A failed fetch never calls this (spec §8: rate failure is silently ignored), so the last good rate stays. */
  load: (rates: ExchangeRates) => void;
}

/** The client store's exchange_rates over the query cache. */
export function exchangeRatesStore(client: QueryClient): ExchangeRatesState {
  const key = exchangeRatesQuery.queryKey;
  return {
    get exchangeRates() { return { btc: client.getQueryData<ExchangeRates>(key)?.btc ?? null }; },
    load: (rates) => { client.setQueryData<ExchangeRates>(key, (old) => keepLastGood(old, rates)); },
  };
}

/** USD per BTC, null until known. */
export const useBtcRate = (): string | null => useQuery(exchangeRatesQuery).data?.btc ?? null;
