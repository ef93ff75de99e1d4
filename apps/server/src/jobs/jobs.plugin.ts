import type { App, AppContext } from '../context.js';
import { NotificationsService } from '../modules/notifications/notifications.service.js';
import { registerIntervalRotation, rotationServiceFor } from '../modules/ports/interval-rotation.js';
import { PortsRepository } from '../modules/ports/ports.repository.js';
import { PurchasesService } from '../modules/purchases/purchases.service.js';
import { registerPortLifecycleJobs } from './port-lifecycle.js';
import { JobQueue, startJobRunner } from './queue.js';

/**
 * Creates the durable job queue with its handlers and, outside tests, the runner that polls it. Tests drive it
 * with `app.jobs.runDueJobs(now)`.
 */
export function registerJobs(app: App, ctx: AppContext): JobQueue {
  const queue = new JobQueue(ctx.db, ctx.log);
  const ports = new PortsRepository(ctx.db, ctx.config.secret, ctx.config.publicUrl);
  const purchases = new PurchasesService(ctx.db, ports, queue, ctx.config.secret, ctx.config.PORT_GRACE_DAYS);
  registerPortLifecycleJobs(queue, { purchases, notifications: new NotificationsService(ctx.db), graceDays: ctx.config.PORT_GRACE_DAYS });
  registerIntervalRotation(queue, { db: ctx.db, rotation: rotationServiceFor(ctx), log: ctx.log });
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
