import { useQuery } from '@tanstack/react-query';
import { exchangeRatesQuery } from '../../../store/exchange-rates';
import { settingsQuery } from '../../../store/settings';

/**
 * Settings (spec §7, loaded at start) and the BTC rate, kept loaded while the shell is open. Both live in the query
 * cache only (decision 020); pages read them with useSettings() and useBtcRate().
 */
export function useShellPaymentData(): void {
  useQuery(settingsQuery);
  useQuery(exchangeRatesQuery);
}
