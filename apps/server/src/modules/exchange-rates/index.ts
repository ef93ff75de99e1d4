// The public BTC/USD rate (decision 044): a route over the payments' cached rate; no table of its own.
export { registerExchangeRates } from './exchange-rates.routes.js';
