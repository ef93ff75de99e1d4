import type { App, AppContext } from '../../context.js';
import { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import type { CardCheckout } from './card-checkout.js';
import { registerCardCheckoutRoutes } from './card-checkout.routes.js';
import type { CardPayments } from './card-payments.js';
import { registerCardWebhookRoute } from './card-webhook.routes.js';
import type { CryptoPayments } from './crypto-payments.js';
import { registerCryptoRoutes } from './crypto.routes.js';
import type { Fulfilment } from './fulfilment.js';
import type { OrdersService } from './orders.service.js';
import { paymentRateLimit } from '../../lib/payment-rate-limit.js';
import type { PaymentsRuntime } from './payments-runtime.js';
import { registerPayPalRoutes } from './paypal.routes.js';
import type { PayPalPayments } from './paypal-payments.js';
import { registerPendingRoutes } from './pending.routes.js';
import { registerQuoteRoutes } from './quote.routes.js';
import type { OrderPricing } from './order-pricing.js';
import type { CatalogService } from '../catalog/index.js';
import { registerSavedCardRoutes } from './saved-cards.routes.js';
import type { SavedCards } from './saved-cards.js';
import type { PaymentSimulation } from './simulate-payment.js';

/** The payments module's services, built by the composition root (composition.ts). */
export interface PaymentsServices {
  payments: PaymentsRuntime;
  orders: OrdersService;
  fulfilment: Fulfilment;
  cryptoPayments: CryptoPayments;
  cardPayments: CardPayments;
  cardCheckout: CardCheckout;
  savedCards: SavedCards;
  paypalPayments: PayPalPayments;
  paymentSimulation: PaymentSimulation;
  orderPricing: OrderPricing;
  catalog: CatalogService;
}

export interface PaymentsModule { fulfilment: Fulfilment; crypto: CryptoPayments; cards: CardPayments; paypal: PayPalPayments; rt: PaymentsRuntime }

/** Money in (issue 4): crypto, card, PayPal, pending payments; its durable jobs (deposit watcher, expiry). */
export function registerPayments(app: App, ctx: AppContext, services: PaymentsServices): PaymentsModule {
  const { payments: rt, orders, fulfilment, cryptoPayments: crypto, cardPayments: cards, paypalPayments: paypal } = services;
  if (rt.card instanceof SandboxCardProvider) rt.card.setEventHandler((event) => cards.handle(event));

  const limited = paymentRateLimit(ctx.config.RATE_LIMIT_PAYMENTS_PER_MINUTE);
  registerCryptoRoutes(app, ctx, { crypto, limited });
  registerPendingRoutes(app, { orders, simulation: services.paymentSimulation, limited });
  registerQuoteRoutes(app, { pricing: services.orderPricing, catalog: services.catalog, limited });
  registerCardCheckoutRoutes(app, { checkout: services.cardCheckout, limited });
  registerSavedCardRoutes(app, { savedCards: services.savedCards, limited });
  registerCardWebhookRoute(app, { cards, rt, log: ctx.log });
  registerPayPalRoutes(app, { paypal, rt, limited });
  const module = { fulfilment, crypto, cards, paypal, rt };
  app.decorate('payments', module);
  return module;
}

declare module 'fastify' {
  interface FastifyInstance { payments: PaymentsModule }
}
