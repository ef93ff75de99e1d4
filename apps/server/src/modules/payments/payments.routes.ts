import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import { PortsRepository } from '../ports/ports.repository.js';
import { PurchasesService } from '../purchases/purchases.service.js';
import { CardPayments } from './card-payments.js';
import { registerCardRoutes } from './card.routes.js';
import { CryptoPayments } from './crypto-payments.js';
import { registerCryptoRoutes } from './crypto.routes.js';
import { Fulfilment } from './fulfilment.js';
import { OrdersService } from './orders.service.js';
import { paymentsRuntime, type PaymentsRuntime } from './payments-runtime.js';
import { registerPayPalRoutes } from './paypal.routes.js';
import { PayPalPayments } from './paypal-payments.js';
import { registerPendingRoutes } from './pending.routes.js';

export interface PaymentRouteDeps {
  ctx: AppContext;
  rt: PaymentsRuntime;
  limited: { rateLimit: { max: number; timeWindow: string; keyGenerator: (r: FastifyRequest) => string } };
}

export interface PaymentsModule { fulfilment: Fulfilment; crypto: CryptoPayments; cards: CardPayments; paypal: PayPalPayments; rt: PaymentsRuntime }

/** Money in (issue 4): crypto, card, PayPal, pending payments; its durable jobs (deposit watcher, expiry). */
export function registerPayments(app: App, ctx: AppContext): PaymentsModule {
  const rt = paymentsRuntime(ctx);
  const ports = new PortsRepository(ctx.db, ctx.config.secret, ctx.config.publicUrl);
  const purchases = new PurchasesService(ctx.db, ports, app.jobs, ctx.config.secret, ctx.config.PORT_GRACE_DAYS);
  const fulfilment = new Fulfilment(ctx, purchases);
  const orders = new OrdersService(ctx);
  const crypto = new CryptoPayments(ctx, rt, app.jobs, fulfilment);
  const cards = new CardPayments(ctx, fulfilment);
  const paypal = new PayPalPayments(ctx, rt, fulfilment);
  crypto.registerJobs();
  if (rt.card instanceof SandboxCardProvider) rt.card.setEventHandler((event) => cards.handle(event));

  const limited = {
    rateLimit: { max: ctx.config.RATE_LIMIT_PAYMENTS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => r.user?.userId ?? r.ip },
  };
  const deps = { ctx, rt, limited };
  registerCryptoRoutes(app, { ...deps, crypto, orders });
  registerPendingRoutes(app, { ...deps, orders, fulfilment, paypal });
  registerCardRoutes(app, { ...deps, orders, cards });
  registerPayPalRoutes(app, { ...deps, orders, paypal });
  const module = { fulfilment, crypto, cards, paypal, rt };
  app.decorate('payments', module);
  return module;
}

declare module 'fastify' {
  interface FastifyInstance { payments: PaymentsModule }
}
