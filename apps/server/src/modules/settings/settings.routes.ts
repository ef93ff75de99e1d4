import { settingsResponseSchema } from '@cellport/shared/schemas/payments';
import type { App, AppContext } from '../../context.js';
import type { CardProvider } from '../../integrations/stripe/card-provider.js';
import { payPalReceiver } from '../../lib/operator-settings-cache.js';

/** What the payment runtime (the composition's `payments`) tells the pages. */
export interface PaymentsOffered {
  card: Pick<CardProvider, 'kind' | 'publicConfig'> | null;
  cryptoMode: 'live' | 'sandbox';
  simulateCrypto: boolean;
}

/** GET /api/v1/settings: public, loaded at start; what the pages need to offer the payment methods. */
export function registerSettings(app: App, ctx: AppContext, rt: PaymentsOffered): void {
  const body = {
    PAYPAL_MODE: ctx.config.paypal.mode,
    card: rt.card
      ? { provider: rt.card.kind, publishableKey: rt.card.publicConfig.provider === 'stripe' ? rt.card.publicConfig.publishableKey : null }
      : { provider: 'off' as const, publishableKey: null },
    crypto: { mode: rt.cryptoMode },
    simulatePayments: rt.simulateCrypto,
  };
  app.get('/api/v1/settings', { schema: { response: { 200: settingsResponseSchema } } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    // The operator can change the documentation link and the PayPal receiver in the console; they override the config.
    const overrides = await ctx.operatorSettings.overrides();
    return {
      ...body,
      PAYPAL_RECEIVER_EMAIL: ctx.config.paypal.mode === 'off' ? '' : payPalReceiver(overrides, ctx),
      documentationUrl: overrides.documentationUrl ?? ctx.config.DOCUMENTATION_URL ?? null,
    };
  });
}
