import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAppStore } from '../../../store';
import { exchangeRatesStore } from '../../../store/exchange-rates';
import { exchangeRatesQuery, settingsQuery } from '../api/settings';

/** Settings (spec §7, loaded at start) into the store's settings slice; the BTC rate into exchange_rates. */
export function useShellPaymentData(): void {
  const setSettings = useAppStore((s) => s.setSettings);
  const settings = useQuery(settingsQuery);
  const rates = useQuery(exchangeRatesQuery);
  useEffect(() => { if (settings.data) setSettings(settings.data); }, [settings.data, setSettings]);
  // Spec §8: an exchange-rate failure is silently ignored — only a good answer reaches the store.
  useEffect(() => { if (rates.data) exchangeRatesStore.getState().load(rates.data); }, [rates.data]);
}
