import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { createResponseSerializerCompiler } from './lib/response-serializer.js';
import type { Config } from './config.js';
import type { App, AppContext } from './context.js';
import type { DatabaseHandle } from './db/database.js';
import { composeServices, type Services } from './composition.js';
import { BUS_RESYNC } from './lib/bus.js';
import { registerCleanText } from './plugins/clean-text.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerSameOrigin } from './plugins/same-origin.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerSession } from './plugins/session.js';
import { registerHealth } from './modules/health/index.js';
import { registerWeb } from './modules/web/index.js';
import { registerAuth } from './modules/auth/index.js';
import { registerDev } from './modules/dev/index.js';
import { registerAccounts } from './modules/accounts/index.js';
import { registerCatalog } from './modules/catalog/index.js';
import { registerSpeedTest, startHostProtocol, type HostProtocolServer } from './modules/hosts/index.js';
import { registerLedger } from './modules/ledger/index.js';
import { registerCoupons } from './modules/coupons/index.js';
import { registerPorts } from './modules/ports/index.js';
import { registerFingerprint } from './modules/fingerprint/index.js';
import { registerPortHistory } from './modules/port-history/index.js';
import { registerPurchases } from './modules/purchases/index.js';
import { registerPayments } from './modules/payments/index.js';
import { registerInvoices } from './modules/invoices/index.js';
import { registerSettings } from './modules/settings/index.js';
import { registerExchangeRates } from './modules/exchange-rates/index.js';
import { registerConsoleRoutes } from './console-routes.js';
import { registerNotifications } from './modules/notifications/index.js';
import { registerRealtime, startRealtime } from './modules/realtime/index.js';
import { registerOpenApi } from './modules/openapi/index.js';
import { registerApiKeys } from './modules/api-keys/index.js';
import { registerTraffic } from './modules/traffic/index.js';
import { registerDashboard } from './modules/dashboard/index.js';
import { registerWebhooks } from './modules/webhooks/index.js';
import { registerMcp } from './modules/mcp/index.js';
import { registerTelegram } from './modules/telegram/index.js';
import { registerReplacement } from './modules/replacement/index.js';
import { registerLegal } from './modules/legal/index.js';
import { registerRequestLogging } from './plugins/request-logging.js';
import { stdoutLogStream } from './lib/log-stream.js';
import { registerMetrics } from './modules/metrics/index.js';
import { registerSupport } from './modules/support/index.js';
import { registerSubscriptions } from './modules/subscriptions/index.js';
import { trustsForwardedFor } from './lib/client-address.js';
import type { JobQueue } from './jobs/queue.js';
import { registerJobHandlers, runsBackground, servesRoutes, startTasks, subscriptions, timers } from './background.js';

export interface BuildOptions {
  config: Config;
  database: DatabaseHandle;
  /** Tests pass false to keep the output clean. */
  logger?: boolean;
  /** Tests that read the log (the route fuzz: no unhandled error) pass a stream; JSON lines at LOG_LEVEL go there. */
  logStream?: { write(line: string): void };
  /**
   * Starts the timers (the job runner, the sweeps: background.ts) in a role that runs the background. main.ts passes
   * true; a test leaves them off and passes time itself (`app.jobs.runDueJobs(now)`).
   */
  timers?: boolean;
}

export async function buildApp({ config, database, logger = true, logStream, timers: withTimers = false }: BuildOptions): Promise<{ app: App; ctx: AppContext; services: Services }> {
  const app = Fastify({
    logger: logStream
      ? { level: config.LOG_LEVEL, stream: logStream }
      : logger
      ? {
          level: config.LOG_LEVEL,
          redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
          ...(config.LOG_PRETTY ?? (!config.isProduction && process.stdout.isTTY)
            ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
            : { stream: stdoutLogStream() }),
        }
      : false,
    trustProxy: trustsForwardedFor(config),
    bodyLimit: 1_048_576,
    routerOptions: { ignoreTrailingSlash: true },
    // Polls arrive every few seconds per customer: Fastify's own per-request lines are off and only failures and
    // slow requests are logged (plugins/request-logging.ts). logController replaces the deprecated top-level
    // disableRequestLogging option.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createResponseSerializerCompiler({ check: config.responseCheck }));

  // The composition root builds every service, repository and adapter once (composition.ts); here they start.
  const { ctx, services } = composeServices({ config, database, log: app.log });
  const { bus, pollVersions, invoiceNumbering } = services;
  await bus.start();
  bus.on(BUS_RESYNC, () => app.log.warn('the LISTEN connection was lost and is back: caches and poll versions start afresh'));
  await pollVersions.start();

  registerErrorHandling(app);
  // Helmet's headers, computed once from the same options (plugins/security-headers.ts says why).
  await registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", 'https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/', 'https://js.stripe.com'],
        'frame-src': ["'self'", 'https://www.google.com/recaptcha/', 'https://js.stripe.com', 'https://hooks.stripe.com'],
        'connect-src': ["'self'", 'https://api.stripe.com'],
        'img-src': ["'self'", 'data:'],
        'form-action': ["'self'", 'https://www.paypal.com', 'https://www.sandbox.paypal.com'],
        'upgrade-insecure-requests': config.isProduction ? [] : null,
      },
    },
    strictTransportSecurity: config.isProduction,
    // same-origin keeps the Origin header on our own native form posts (no-referrer makes browsers send
    // `Origin: null`, which the CSRF check must refuse) while leaking nothing to other sites.
    referrerPolicy: { policy: 'same-origin' },
  });
  await app.register(cookie);
  await app.register(formbody);
  await app.register(rateLimit, { global: false });
  registerCleanText(app);
  registerSameOrigin(app, config.publicUrl);
  registerSession(app, services.sessions);
  registerRequestLogging(app);
  await registerOpenApi(app, ctx);
  // After the OpenAPI plugin (GET /metrics is in the full document, so the route fuzz reaches it), before the modules.
  registerMetrics(app, ctx, services.metrics);

  registerHealth(app, services);
  const role = config.CELLPORT_ROLE;
  app.decorate('jobs', services.jobs);
  // The Telegram bot in every role: web instances answer its webhook and show its state, workers send through it.
  // Not awaited: a Bot API that is slow or away must not hold up the start (errors are logged).
  app.addHook('onReady', async () => { void services.telegramBot.start(); });
  app.addHook('onClose', async () => { await services.telegramBot.stop(); });

  // Phase 1, routes (decision 044): HTTP, the realtime socket and the agents' host protocol. Modules: one line each.
  if (servesRoutes(role)) {
    // The caches the routes read, kept fresh by the database's announcements.
    for (const cache of [services.catalogOffers, services.portsLists]) {
      await cache.start();
      app.addHook('onClose', async () => { await cache.stop(); });
    }
    registerAccounts(app, ctx, services);
    registerWebhooks(app, services);
    registerTelegram(app, ctx, services);
    registerReplacement(app, services);
    await registerCatalog(app, services);
    await registerSpeedTest(app, ctx);
    registerLedger(app, ctx, services);
    registerCoupons(app, ctx, services);
    await registerPorts(app, services);
    registerPortHistory(app, services);
    registerFingerprint(app, services);
    registerPurchases(app, ctx, services);
    registerPayments(app, ctx, services);
    registerSubscriptions(app, services);
    registerInvoices(app, ctx, services);
    registerSettings(app, ctx, services.payments);
    registerExchangeRates(app, ctx, services);
    await registerConsoleRoutes(app, services);
    registerNotifications(app, ctx, services);
    registerRealtime(app, ctx);
    registerApiKeys(app, ctx, services.apiKeys);
    registerTraffic(app, ctx, services);
    registerDashboard(app, ctx, services.dashboard);
    registerMcp(app, ctx, services);
    await registerSupport(app, services);
    registerLegal(app, ctx, services);
    registerAuth(app, ctx, services);
    registerDev(app, ctx, services.devOutbox);
    await registerWeb(app, ctx);

    // The sockets on the same HTTP server: the customers' realtime and the agents' host protocol (the instance
    // holding a host's socket pushes its desired state). Closed before the listener, so clients reconnect elsewhere.
    const realtime = startRealtime(app.server, ctx, { ledger: services.ledger, repo: services.realtimeRepository });
    app.decorate('io', realtime.io);
    app.addHook('preClose', async () => { await realtime.close(); });
    const hostProtocol = await startHostProtocol(app.server, ctx, services);
    app.decorate('hostProtocol', hostProtocol);
    app.addHook('preClose', async () => { await hostProtocol.close(); });
  }

  // Phases 2 and 3 (background.ts): the jobs' handlers, then the subscriptions and, from main.ts, the timers.
  if (runsBackground(role)) {
    registerJobHandlers(ctx, services);
    const tasks = [...subscriptions(ctx, services), ...(withTimers ? timers(ctx, services) : [])];
    let stopBackground: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => { stopBackground = await startTasks(tasks); });
    // Before the bus and the database close: a job or delivery in hand finishes and commits.
    app.addHook('onClose', async () => { await stopBackground?.(); });
  }

  app.addHook('onClose', async () => { await invoiceNumbering.idle(); await bus.stop(); await pollVersions.stop(); });
  return { app, ctx, services };
}

declare module 'fastify' {
  interface FastifyInstance { jobs: JobQueue; io: import('socket.io').Server; hostProtocol: HostProtocolServer }
}
