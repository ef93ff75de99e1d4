import type { Config } from '../../config.js';
import type { CardProvider } from './card-provider.js';
import { SandboxCardProvider } from './sandbox-card-provider.js';
import type { SandboxCardStore } from './sandbox-card-store.js';
import { StripeCardProvider } from './stripe-card-provider.js';

/**
 * The card provider the settings ask for, or null when card payments are off (production without Stripe keys).
 * The sandbox keeps its saved cards in `sandboxStore` (the database), as Stripe keeps them, so a restart loses none.
 */
export function createCardProvider(config: Config, sandboxStore: SandboxCardStore): StripeCardProvider | SandboxCardProvider | null {
  switch (config.cardProvider) {
    case 'stripe':
      return new StripeCardProvider({
        secretKey: config.STRIPE_SECRET_KEY ?? '',
        publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? '',
        webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? '',
        ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
      });
    case 'sandbox':
      return new SandboxCardProvider(undefined, undefined, sandboxStore);
    case 'off':
      return null;
  }
}

export type { CardProvider };
