import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import type { DatabaseHandle } from './db/database.js';
import { AltchaCaptcha } from './integrations/captcha/altcha.js';
import type { Captcha } from './integrations/captcha/captcha.js';
import { OffCaptcha } from './integrations/captcha/off.js';
import { RecaptchaCaptcha } from './integrations/captcha/recaptcha.js';
import { DatabaseSolutionStore } from './integrations/captcha/captcha-solutions.repository.js';
import { Mailer } from './integrations/mail/mailer.js';
import { smtpTransport } from './integrations/mail/smtp.js';
import { GrammyTelegram } from './integrations/telegram/telegram-grammy.js';
import { SandboxTelegram } from './integrations/telegram/telegram-sandbox.js';
import { AgentModemDriver, type ModemHosts } from './integrations/modem-control/agent-driver.js';
import type { ModemDriver } from './integrations/modem-control/modem-control.js';
import { SimulatedModemDriver } from './integrations/modem-control/simulated-driver.js';
import { JobQueue } from './jobs/queue.js';
import { Bus } from './lib/bus.js';
import { instanceName } from './lib/instance-name.js';
import { PollVersions } from './lib/poll-versions.js';
import { AccountSettingsService, AccountsAdminService, AccountsRepository, CustomersRepository } from './modules/accounts/index.js';
import { AuditLog, AuditRepository } from './modules/audit/index.js';
import { OverviewCache, OverviewRepository } from './modules/console-overview/index.js';
import { DashboardRepository, DashboardService } from './modules/dashboard/index.js';
import { DevOutboxRepository } from './modules/dev/index.js';
import { sellerOf, SettingsAdminService, SettingsRepository } from './modules/settings/index.js';
import { effectivePayPalReceiver, OperatorSettingsCache } from './lib/operator-settings-cache.js';
import { OperatorAlertsRepository, OperatorAlertsService } from './modules/operator-alerts/index.js';
import { OperatorsRepository, OperatorsService } from './modules/operators/index.js';
import { LegalRepository, LegalService } from './modules/legal/index.js';
import { ApiKeysRepository, ApiKeysService } from './modules/api-keys/index.js';
import { AuthRepository, AuthService, CaptchaGate, CaptchaPassesRepository, RecoveryCodesRepository, SessionsRepository } from './modules/auth/index.js';
import {
  CatalogAdminRepository, CatalogAdminService, CatalogOffersCache, CatalogRepository, CatalogService, ModemQualityTracker,
} from './modules/catalog/index.js';
import { CouponsAdminService, CouponsRepository, CouponsService } from './modules/coupons/index.js';
import { HealthRepository } from './modules/health/index.js';
import { RealtimeRepository } from './modules/realtime/index.js';
import {
  HostsAdminRepository, HostsAdminService, HostsRepository, HostStateRepository, ModemsAdminService, ModemsRepository, portServesDesired,
} from './modules/hosts/index.js';
import {
  GatewayLinksRepository, GatewayPorts, GatewayPortsRepository, GatewaysAdminRepository, GatewaysAdminService,
  gatewayTrust as deriveGatewayTrust,
} from './modules/gateways/index.js';
import { InvoiceNumbering, InvoicesRepository, InvoicesService } from './modules/invoices/index.js';
import { LedgerRepository, LedgerService } from './modules/ledger/index.js';
import { NotificationEmails, NotificationsRepository, NotificationsService } from './modules/notifications/index.js';
import {
  AdminPaymentsRepository, CardCheckout, CardCustomers, CardPayments, CardRefunds, createPaymentsRuntime, CryptoPayments,
  Fulfilment, OrderPricing, OrdersRepository, OrdersService, PaymentsAdminService, PaymentsRepository, PaymentSimulation,
  PayPalPayments, SandboxCardsRepository, SavedCards,
} from './modules/payments/index.js';
import { SubscriptionSync, SubscriptionsRepository, SubscriptionsService } from './modules/subscriptions/index.js';
import {
  PortsAdminRepository, PortsAdminService, PortsListCache, PortsRepository, PortsService, RotationRepository, RotationService,
} from './modules/ports/index.js';
import { FingerprintCheckService, FingerprintRepository } from './modules/fingerprint/index.js';
import { PurchasesRepository, PurchasesService } from './modules/purchases/index.js';
import { TrafficRepository } from './modules/traffic/index.js';
import { PortHistoryRepository, PortHistoryService } from './modules/port-history/index.js';
import { TelegramBot, TelegramNotifications, TelegramRepository, TelegramService } from './modules/telegram/index.js';
import { parsePortList } from './lib/webhook-ports.js';
import { DeliveryWorker, publishWebhookEvent, WebhookSecretBox, WebhooksRepository, WebhooksService } from './modules/webhooks/index.js';
import { ReplacementRepository, ReplacementService } from './modules/replacement/index.js';
import { SupportRepository, SupportService } from './modules/support/index.js';
import { countPortsListServes, MetricsRepository, ScrapeCounts, ServerMetrics } from './modules/metrics/index.js';
import { Sessions } from './plugins/session.js';

/** What the composition is built from: the settings, the open (and migrated) database, the app's logger. */
export interface CompositionBase {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
}

/**
 * The composition root (docs/decisions/019-composition-root.md): every repository, service and adapter of the
 * server is built here, once, in dependency order, and nowhere else (composition.test.ts keeps it so). Adapters
 * and drivers are chosen here from the config. buildApp (app.ts) hands the result to the modules, jobs and the
 * realtime and host-protocol servers. Nothing here starts anything: buildApp starts and stops what has a lifecycle.
 */
export function composeServices({ config, database, log }: CompositionBase) {
  const db = database.db;

  // Infrastructure: metrics (this app's own registry), events between modules and instances, sessions, poll
  // versions, mail, durable jobs.
  const metrics = new ServerMetrics(database, new ScrapeCounts(new MetricsRepository(db), log), { processMetrics: Boolean(config.METRICS_TOKEN) });
  const bus = new Bus(database);
  const sessions = new Sessions(new SessionsRepository(db), bus, config);
  const pollVersions = new PollVersions(database);
  const mailer = new Mailer(db, config.MAIL_FROM, config.SMTP_URL ? smtpTransport(config.SMTP_URL) : null, log);
  const invoicesRepository = new InvoicesRepository(db);
  const invoiceNumbering = new InvoiceNumbering(invoicesRepository, log);
  const jobs = new JobQueue(db, log, (kind) => metrics.jobFailed(kind), instanceName(config));
  const settingsRepository = new SettingsRepository(db);
  const operatorSettings = new OperatorSettingsCache(() => settingsRepository.overrides(), bus);
  const accountsRepository = new AccountsRepository(db);
  const ctx: AppContext = {
    config, database, db, bus, sessions, mailer, pollVersions, invoiceNumbering, operatorSettings, languages: accountsRepository, log,
  };

  // Adapters and drivers, chosen from the config.
  const captcha = chooseCaptcha(config, database);
  const payments = createPaymentsRuntime(config, log, new SandboxCardsRepository(db));
  const webhookSecretBox = new WebhookSecretBox(config.secret);
  const portsLists = countPortsListServes(new PortsListCache(database), metrics);
  // What each Add Proxies choice buys (stock, speeds, UDP, ASN), kept in memory; and the speed medians it reads.
  const catalogRepository = new CatalogRepository(db);
  const catalogOffers = new CatalogOffersCache(database, catalogRepository);
  const modemQuality = new ModemQualityTracker(catalogRepository);
  const gatewayTrust = deriveGatewayTrust(config.secret);
  // Readiness: does the database answer.
  const health = new HealthRepository(db);
  // The customers' realtime socket: whether a token's session still stands.
  const realtimeRepository = new RealtimeRepository(db);

  // Repositories.
  const authRepository = new AuthRepository(db);
  const recoveryCodes = new RecoveryCodesRepository(db, config.secret);
  const notificationsRepository = new NotificationsRepository(db);
  const trafficRepository = new TrafficRepository(db);
  const hostsRepository = new HostsRepository(db);
  const modemDriver = chooseModemDriver(config, hostsRepository, bus);
  const hostStateRepository = new HostStateRepository(db);
  const gatewayLinks = new GatewayLinksRepository(db);
  const portsRepository = new PortsRepository(db, config.secret, config.publicUrl);
  const rotationRepository = new RotationRepository(db);
  const adminPaymentsRepository = new AdminPaymentsRepository(db);
  const purchasesRepository = new PurchasesRepository(db);
  const ordersRepository = new OrdersRepository(db);
  const paymentsRepository = new PaymentsRepository(db);

  // Customer-facing services.
  const catalog = new CatalogService(catalogRepository);
  const couponsRepo = new CouponsRepository(db);
  const coupons = new CouponsService(couponsRepo);
  const ledger = new LedgerService(new LedgerRepository(db));
  // Given the links, a notification whose caller knows the reader's address writes its e-mail in its own transaction.
  const notifications = new NotificationsService(notificationsRepository, config);
  const notificationEmails = new NotificationEmails(ctx, notificationsRepository);
  const auth = new AuthService(authRepository, ctx, recoveryCodes);
  const captchaGate = new CaptchaGate(config, new CaptchaPassesRepository(db));
  const accountSettings = new AccountSettingsService(accountsRepository, sessions, mailer, recoveryCodes);
  const apiKeys = new ApiKeysService(new ApiKeysRepository(db), bus);
  const invoices = new InvoicesService(invoicesRepository, invoiceNumbering, async () => sellerOf(await operatorSettings.overrides()));
  // A rotation has no transaction for its webhook events to join: each is published on its own.
  const rotation = new RotationService(rotationRepository, bus, modemDriver, notifications,
    (userId, type, data) => publishWebhookEvent(db, userId, type, data));
  const ports = new PortsService(portsRepository, rotationRepository, config.secret, config.publicUrl, jobs);
  const fingerprintCheck = new FingerprintCheckService(new FingerprintRepository(db), { echoUrl: config.FINGERPRINT_ECHO_URL, timeoutMs: config.FINGERPRINT_CHECK_TIMEOUT_MS },
    (hostId, portId) => portServesDesired(hostStateRepository, bus, hostId, portId));
  const purchases = new PurchasesService({
    repo: purchasesRepository, ports: portsRepository, jobs, coupons, ledger, notifications,
    secret: config.secret, graceDays: config.PORT_GRACE_DAYS,
  });
  const orders = new OrdersService(ordersRepository);
  const orderPricing = new OrderPricing(ordersRepository, catalog, coupons);
  const fulfilment = new Fulfilment({
    orderRows: ordersRepository, orders, payments: paymentsRepository, purchases, ledger, notifications, ctx,
  });
  const cryptoPayments = new CryptoPayments({
    orderRows: ordersRepository, orders, accounts: paymentsRepository, pricing: orderPricing, rt: payments, jobs, fulfilment, log,
  });
  const cardRefunds = new CardRefunds(paymentsRepository, ledger, fulfilment);
  const cardCustomers = new CardCustomers(paymentsRepository, payments);
  // Card subscriptions: kept true to the provider by its events and the customer's and console's changes.
  const subscriptionsRepository = new SubscriptionsRepository(db);
  const subscriptionSync = new SubscriptionSync({ repo: subscriptionsRepository, customers: cardCustomers, notifications, jobs, ctx });
  const cardPayments = new CardPayments(ordersRepository, paymentsRepository, fulfilment, cardRefunds, subscriptionSync, ctx);
  const cardCheckout = new CardCheckout({
    customers: cardCustomers, pricing: orderPricing, orders, orderRows: ordersRepository, payments: paymentsRepository, rt: payments,
  });
  const savedCards = new SavedCards(cardCustomers, payments);
  const paypalPayments = new PayPalPayments({
    orderRows: ordersRepository, orders, payments: paymentsRepository, pricing: orderPricing, rt: payments, fulfilment, ctx,
    receiver: () => effectivePayPalReceiver(ctx),
  });
  const paymentSimulation = new PaymentSimulation(orders, fulfilment, paypalPayments, payments, config);
  const webhooks = new WebhooksService({
    repo: new WebhooksRepository(db), queue: jobs, notifications, box: webhookSecretBox,
    policy: {
      allowLoopback: config.webhooksAllowLoopback, timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
      allowedPorts: parsePortList(config.WEBHOOKS_ALLOWED_PORTS),
    },
    worker: new DeliveryWorker(config.WEBHOOKS_CONCURRENCY, log),
  });
  // Telegram: the bot (grammy, or the sandbox without a token) and the notifications it delivers.
  const telegramRepository = new TelegramRepository(db);
  const telegram = new TelegramService({ repo: telegramRepository, ports: portsRepository, ledger, rotation, log });
  // The bot's adapter is rebuilt when the console changes the token: grammy for a token, else the sandbox (none in production).
  const telegramGateway = (token: string | null) => (token
    ? new GrammyTelegram(token, config.TELEGRAM_API_ROOT, log)
    : config.isProduction ? null : new SandboxTelegram(log));
  const telegramBot = new TelegramBot({ config, repo: telegramRepository, bus, log, service: telegram, box: webhookSecretBox, gateway: telegramGateway });
  const telegramNotifications = new TelegramNotifications({ repo: telegramRepository, bot: telegramBot, log });

  // The operator console's services, every change audited.
  const audit = new AuditLog(new AuditRepository(db));
  const subscriptions = new SubscriptionsService(subscriptionsRepository, cardCustomers, subscriptionSync, audit);
  const legal = new LegalService(new LegalRepository(db), audit);
  const portsAdmin = new PortsAdminService(new PortsAdminRepository(db), audit);
  // A gateway listens on the same numbers for every host behind it: a host's pin and a modem's write both ask it.
  const gatewayPorts = new GatewayPorts(new GatewayPortsRepository());
  const admin = {
    admins: new OperatorsService(new OperatorsRepository(db), bus, audit),
    customers: new AccountsAdminService({
      repo: new CustomersRepository(db), audit, sessions, ports: portsAdmin,
      payments: adminPaymentsRepository, ledger, auth, legal,
    }),
    hosts: new HostsAdminService(new HostsAdminRepository(db), audit, gatewayPorts),
    gateways: new GatewaysAdminService(new GatewaysAdminRepository(db), audit, gatewayTrust.publicKey),
    modems: new ModemsAdminService(new ModemsRepository(db), audit, gatewayPorts),
    ports: portsAdmin,
    catalog: new CatalogAdminService(catalogRepository, new CatalogAdminRepository(db), bus, audit),
    coupons: new CouponsAdminService(couponsRepo, audit),
    payments: new PaymentsAdminService(ctx, audit, adminPaymentsRepository, ledger, fulfilment, cardRefunds, payments.card),
    settings: new SettingsAdminService(ctx, audit, settingsRepository),
    overview: new OverviewCache(new OverviewRepository(db), bus),
  };
  const replacement = new ReplacementService({
    repo: new ReplacementRepository(db), jobs, purchases: purchasesRepository, notifications, audit, settings: operatorSettings,
    defaultAfterMinutes: config.REPLACEMENT_AFTER_MINUTES,
  });
  // Support tickets: customers' side and the console's (audited), notifying through the notifications.
  const support = new SupportService({ repo: new SupportRepository(db), notifications, audit, bus, jobs });
  // A port's uptime and IP history, read from the logs the modems' triggers write.
  const portHistory = new PortHistoryService(new PortHistoryRepository(db));
  // Each operator's channels for the farm's alerts.
  const alertSettings = new OperatorAlertsService(new OperatorAlertsRepository(db), audit);
  // The customer's dashboard: their ports at a glance, the last day's traffic, the latest notifications.
  const dashboard = new DashboardService(new DashboardRepository(db), { traffic: trafficRepository, notifications: notificationsRepository });
  // Development only (never served in production): the e-mails the product sent, for a person and the browser tests.
  const devOutbox = new DevOutboxRepository(db);

  const services = {
    metrics, health, realtimeRepository, bus, sessions, pollVersions, mailer, invoiceNumbering, jobs,
    captcha, modemDriver, payments, webhookSecretBox, operatorSettings, portsLists, gatewayTrust, catalogOffers, modemQuality,
    authRepository, recoveryCodes, gatewayLinks, accountsRepository, notificationsRepository, trafficRepository, hostsRepository, hostStateRepository, portsRepository,
    rotationRepository,
    adminPaymentsRepository,
    catalog, coupons, ledger, notifications, notificationEmails, auth, captchaGate, accountSettings, apiKeys, invoices,
    rotation, ports, fingerprintCheck, purchases, orders, fulfilment, cryptoPayments, cardPayments, paypalPayments, webhooks,
    telegram, telegramBot, telegramNotifications,
    purchasesRepository, ordersRepository, paymentsRepository, orderPricing, cardCustomers, cardCheckout, savedCards,
    paymentSimulation, subscriptionsRepository, subscriptionSync, subscriptions,
    audit, admin, legal, replacement, support, portHistory, alertSettings, dashboard, devOutbox,
  };
  return { ctx, services };
}

export type Services = ReturnType<typeof composeServices>['services'];

/** The captcha behind the sign-in form (CAPTCHA_PROVIDER). */
function chooseCaptcha(config: Config, database: DatabaseHandle): Captcha {
  switch (config.CAPTCHA_PROVIDER) {
    case 'altcha':
      return new AltchaCaptcha({ hmacKey: config.secret, maxNumber: config.ALTCHA_MAX_NUMBER, store: new DatabaseSolutionStore(database.db) });
    case 'recaptcha':
      return new RecaptchaCaptcha({
        siteKey: config.RECAPTCHA_SITE_KEY ?? null,
        secret: config.RECAPTCHA_SECRET_KEY ?? '',
        verifyUrl: config.RECAPTCHA_VERIFY_URL,
      });
    case 'off':
      return new OffCaptcha();
  }
}

/** The modem-control driver (MODEM_CONTROL): the host agent that owns the modem (default) or the simulation. */
function chooseModemDriver(config: Config, modems: ModemHosts, bus: Bus): ModemDriver {
  if (config.MODEM_CONTROL === 'simulated') {
    return new SimulatedModemDriver({ delayMs: config.MODEM_SIM_DELAY_MS, sameIpRate: config.MODEM_SIM_SAME_IP_RATE });
  }
  return new AgentModemDriver(modems, bus);
}
