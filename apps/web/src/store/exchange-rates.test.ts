import { describe, expect, it } from 'vitest';
import { exchangeRatesStore } from './exchange-rates';

describe('exchange rates store', () => {
  it('load sets the rate and keeps the last good one when the new answer has none', () => {
    exchangeRatesStore.getState().load({ btc: '64250.12' });
    expect(exchangeRatesStore.getState().exchangeRates.btc).toBe('64250.12');
    exchangeRatesStore.getState().load({ btc: null });
    expect(exchangeRatesStore.getState().exchangeRates.btc).toBe('64250.12');
  });
});
