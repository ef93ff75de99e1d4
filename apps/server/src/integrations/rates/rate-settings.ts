import { z } from 'zod';

/** Rate settings, spread into the config schema (apps/server/src/config.ts). */
export const rateConfigFields = {
  /** blockchain.info/ticker-compatible JSON; the BTC/USD rate is read from `USD.last`. */
  RATE_TICKER_URL: z.url().default('https://blockchain.info/ticker'),
};
