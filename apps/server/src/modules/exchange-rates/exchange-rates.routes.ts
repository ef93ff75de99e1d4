import { exchangeRatesResponseSchema } from '@cellport/shared/schemas/payments';
import type { App, AppContext } from '../../context.js';
import { paymentsRuntime } from '../payments/payments-runtime.js';

/** GET /api/v1/exchange-rates: the BTC/USD rate our server fetched and cached (decision 010); null before the first. */
export function registerExchangeRates(app: App, ctx: AppContext): void {
  const rt = paymentsRuntime(ctx);
  app.get('/api/v1/exchange-rates', { schema: { response: { 200: exchangeRatesResponseSchema } } }, async (_request, reply) => {
    const rate = await rt.rates.current();
    reply.header('cache-control', 'public, max-age=30');
    return { btc: rate?.usd ?? null };
  });
}
