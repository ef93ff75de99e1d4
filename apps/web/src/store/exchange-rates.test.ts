import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { exchangeRatesStore } from './exchange-rates';

// The store's actions work on the query cache (decision 020): one client holds what they change.
const client = new QueryClient();

describe('exchange rates store', () => {
  it('load sets the rate and keeps the last good one when the new answer has none', () => {
    exchangeRatesStore(client).load({ btc: '64250.12' });
    expect(exchangeRatesStore(client).exchangeRates.btc).toBe('64250.12');
    exchangeRatesStore(client).load({ btc: null });
    expect(exchangeRatesStore(client).exchangeRates.btc).toBe('64250.12');
  });
});
