import { JOBS } from '../../jobs/job-kinds.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { NotificationsService } from '../notifications/index.js';
import type { CardCustomers } from '../payments/index.js';
import { isoDay, subscriptionParams } from './subscription-texts.js';
import type { SubscriptionsRepository } from './subscriptions.repository.js';

/**
 * The card subscriptions' jobs. `subscription.remind`: a few days before a charge, the customer is told by e-mail
 * what will be charged, when, to which card and for which ports — unless the subscription has changed since (ended,
 * set to cancel, or its period moved: a later key covers that). `subscription.sandbox_due`: in the sandbox, what
 * Stripe does on its own schedule (charge, retry, end), run after the job's commit since the sandbox's events book
 * money in transactions of their own.
 */
export function registerSubscriptionJobs(queue: JobQueue, deps: { repo: SubscriptionsRepository; customers: CardCustomers; notifications: NotificationsService }): void {
  const { repo, customers, notifications } = deps;

  queue.handle(JOBS.subscriptionRemind, async (tx, p) => {
    const locked = await repo.lock(tx, p.subscriptionId);
    if (!locked || locked.status !== 'active' || locked.cancel_at_period_end || locked.current_period_end?.toISOString() !== p.chargeAt) return;
    const row = await repo.one(p.subscriptionId, tx);
    if (!row) return;
    await notifications.notify(row.user_id, 'other', 'subscription_charge_upcoming', { ...subscriptionParams(row), date: isoDay(new Date(p.chargeAt)) }, tx);
  });

  queue.handle(JOBS.subscriptionSandboxDue, async (tx, p, now) => {
    const sandbox = customers.sandbox();
    if (!sandbox) return; // the provider changed to Stripe since: Stripe keeps its own schedule
    const row = await repo.one(p.subscriptionId, tx);
    if (!row || (row.status !== 'active' && row.status !== 'past_due') || !row.card_customer_id || row.amount === null) return;
    const due = row.status === 'past_due' ? row.next_charge_at : row.current_period_end;
    if (due?.toISOString() !== p.dueAt) return;
    // A subscription the sandbox forgot (a restart) is rebuilt from our rows and its saved card on first use.
    return async () => {
      await sandbox.advance(row.id, now);
    };
  });
}
