import { exchangeRatesResponseSchema } from '@cellport/shared/schemas/payments';
import type { Services } from '../../composition.js';
import type { App, AppContext } from '../../context.js';

/** GET /api/v1/exchange-rates: the BTC/USD rate our server fetched and cached (decision 010); null before the first. */
export function registerExchangeRates(app: App, ctx: AppContext, services: Services): void {
  const rt = services.payments;
  app.get('/api/v1/exchange-rates', { schema: { response: { 200: exchangeRatesResponseSchema } } }, async (_request, reply) => {
    const rate = await rt.rates.current();
    reply.header('cache-control', 'public, max-age=30');
    return { btc: rate?.usd ?? null };
  });
}
