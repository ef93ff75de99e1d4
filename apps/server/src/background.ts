import type { Services } from './composition.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { startJobRunner } from './jobs/queue.js';
import { registerIntervalRotation } from './modules/ports/index.js';
import { registerPortLifecycleJobs } from './modules/purchases/index.js';
import { registerSubscriptionJobs, renewedByCardSubscription } from './modules/subscriptions/index.js';

/**
 * What runs in the background, all of it (decision 044; docs/architecture.md, "Background work"). The composition
 * root (app.ts) works in three phases: routes (HTTP, the realtime socket, the agents' host protocol), then the jobs
 * below, then the subscriptions and timers below. Which phases a process runs is its role (CELLPORT_ROLE): `all`
 * runs the three, `web` the routes only, `worker` the jobs, subscriptions and timers (and /healthz, /readyz,
 * /metrics). Route registrars start none of it.
 */

export type Role = Config['CELLPORT_ROLE'];

/** The routes phase: HTTP, realtime and host protocol. */
export const servesRoutes = (role: Role): boolean => role !== 'worker';
/** The jobs, subscriptions and timers phases. */
export const runsBackground = (role: Role): boolean => role !== 'web';

/** Something started in the background; resolves to its stop (which waits for the work it has in hand). */
export interface BackgroundTask {
  name: string;
  start(): Promise<() => Promise<void>>;
}

/**
 * Phase 2, jobs: the handler of every declared job kind (jobs/job-kinds.ts) and every planner (runs at the start of
 * each round and schedules jobs that should exist), by domain. Registering runs nothing: the runner (a timer below)
 * or a test's `app.jobs.runDueJobs(now)` does.
 */
export function registerJobHandlers(ctx: AppContext, services: Services): void {
  const { jobs: queue, purchases, notifications, rotation } = services;
  // port.remind, port.autorenew, port.expire, port.release: a port's term.
  registerPortLifecycleJobs(queue, {
    repo: services.purchasesRepository, purchases, notifications, graceDays: ctx.config.PORT_GRACE_DAYS, renewedByCardSubscription,
  });
  // port.rotate, modem.rotate; planner: the chains of interval rotations that should exist.
  registerIntervalRotation(queue, { repo: services.rotationRepository, rotation, log: ctx.log });
  // subscription.*: card subscriptions' renewals and their reminders.
  registerSubscriptionJobs(queue, { repo: services.subscriptionsRepository, customers: services.cardCustomers, notifications });
  // crypto.watch, crypto.expire: a pending crypto payment's look at the chain, and its end.
  services.cryptoPayments.registerJobs();
  // Planner: invoices a crash left unnumbered between a commit and its kick (invoice-numbers.ts).
  queue.plan(() => ctx.invoiceNumbering.settle());
  // Planner: hands due webhook deliveries to the delivery worker (webhook.deliver is a no-op left for old rows).
  services.webhooks.register();
  // port.replace; planner: ports whose modem is offline too long, and queued ones a modem is free for.
  services.replacement.register();
  // support.sweep_uploads; planner: armed when an unreferenced upload is overdue.
  services.support.register();
}

/**
 * Phase 3a, subscriptions: work started by a change another process announced. They run wherever the background
 * runs, tests included (they hear their own commits).
 */
export function subscriptions(ctx: AppContext, services: Services): BackgroundTask[] {
  const { notificationEmails: emails, telegramNotifications: deliveries } = services;
  return [
    {
      // A notification's e-mail leaves after the commit that created it; one instance wins each (NotificationEmails).
      name: 'notification e-mails after commit',
      start: async () => {
        const off = ctx.pollVersions.onChange((change) => {
          if (change.mail) emails.send(change.mail).catch((err: unknown) => ctx.log.error({ err }, 'notification e-mail failed'));
          // Written with its notification: only the hand-over to SMTP is left (nothing to do without SMTP).
          if (change.mailed) emails.handWritten(change.mailed).catch((err: unknown) => ctx.log.error({ err }, 'notification e-mail failed'));
        });
        return async () => { off(); };
      },
    },
    {
      // The Telegram messages a linked chat wants, after each commit (telegram-notifications.ts).
      name: 'telegram notifications after commit',
      start: () => deliveries.listen(ctx.database),
    },
    {
      // modem.down / modem.up webhook events from the hosts' modem announcements (webhook-modem-events.ts).
      name: 'webhook modem events',
      start: async () => {
        const off = services.webhooks.listenForModemChanges(ctx);
        return async () => { off(); };
      },
    },
    {
      // Deliveries the planner handed over; stopping waits for those in flight (each within WEBHOOKS_TIMEOUT_MS).
      name: 'webhook delivery worker',
      start: async () => () => services.webhooks.stop(),
    },
  ];
}

const SWEEP_EVERY_MS = 60_000;

/**
 * Phase 3b, timers: work started by the clock. A process started by main.ts runs them; an app a test builds does
 * not (it passes time itself: `app.jobs.runDueJobs(now)`, `sweep()`).
 */
export function timers(ctx: AppContext, services: Services): BackgroundTask[] {
  const { notificationEmails: emails, telegramNotifications: deliveries } = services;
  const every = (name: string, run: () => Promise<unknown>): BackgroundTask => ({
    name,
    start: async () => {
      const timer = setInterval(() => { run().catch((err: unknown) => ctx.log.error({ err }, `${name} failed`)); }, SWEEP_EVERY_MS);
      timer.unref();
      return async () => { clearInterval(timer); };
    },
  });
  return [
    {
      // Polls for due jobs every JOBS_POLL_MS (0: off); stopping waits for the round in hand to commit.
      name: 'job runner',
      start: async () => (ctx.config.JOBS_POLL_MS > 0 ? startJobRunner(services.jobs, ctx.config.JOBS_POLL_MS, ctx.log) : async () => {}),
    },
    // The e-mails and Telegram messages whose after-commit send was missed (a crash, a process that was down).
    every('notification e-mail sweep', () => emails.sweep()),
    every('telegram sweep', () => deliveries.sweep()),
  ];
}

/** Starts the tasks in order; the stop it resolves to stops them in reverse order. */
export async function startTasks(tasks: BackgroundTask[]): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  for (const task of tasks) stops.push(await task.start());
  return async () => { for (const stop of stops.reverse()) await stop(); };
}
