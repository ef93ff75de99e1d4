import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

/** Spec §3 "Exchange rates": btc = USD per BTC as a decimal string ("64250.12"), null until known. */
export interface ExchangeRates {
  btc: string | null;
}

export interface ExchangeRatesState {
  exchangeRates: ExchangeRates;
  /** A failed fetch never calls this (spec §8: rate failure is silently ignored), so the last good rate stays. */
  load: (rates: ExchangeRates) => void;
}

export const exchangeRatesStore = createStore<ExchangeRatesState>()((set) => ({
  exchangeRates: { btc: null },
  load: (rates) => set(({ exchangeRates }) => ({ exchangeRates: { btc: rates.btc ?? exchangeRates.btc } })),
}));

export const useExchangeRatesStore = <T>(selector: (state: ExchangeRatesState) => T): T => useStore(exchangeRatesStore, selector);
