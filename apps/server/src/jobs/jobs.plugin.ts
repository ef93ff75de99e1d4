import type { Services } from '../composition.js';
import type { App, AppContext } from '../context.js';
import { registerIntervalRotation } from '../modules/ports/interval-rotation.js';
import { registerSubscriptionJobs } from '../modules/subscriptions/subscription-jobs.js';
import { registerPortLifecycleJobs } from './port-lifecycle.js';
import { startJobRunner, type JobQueue } from './queue.js';

/**
 * Gives the durable job queue (built by the composition root) its handlers and, outside tests, the runner that
 * polls it. Tests drive it with `app.jobs.runDueJobs(now)`.
 */
export function registerJobs(app: App, ctx: AppContext, services: Services): JobQueue {
  const { jobs: queue, purchases, notifications, rotation } = services;
  registerPortLifecycleJobs(queue, { purchases, notifications, graceDays: ctx.config.PORT_GRACE_DAYS });
  registerIntervalRotation(queue, { db: ctx.db, rotation, log: ctx.log });
  registerSubscriptionJobs(queue, { repo: services.subscriptionsRepository, customers: services.cardCustomers, notifications });
  // Invoices a crash left unnumbered between a commit and its kick (invoice-numbers.ts).
  queue.plan(() => ctx.invoiceNumbering.settle());
  app.decorate('jobs', queue);
  if (ctx.config.NODE_ENV !== 'test' && ctx.config.JOBS_POLL_MS > 0) {
    const stop = startJobRunner(queue, ctx.config.JOBS_POLL_MS, ctx.log);
    app.addHook('onClose', stop);
  }
  return queue;
}

declare module 'fastify' {
  interface FastifyInstance { jobs: JobQueue }
}
