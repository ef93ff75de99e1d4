import { SUBSCRIPTION_REMINDER_DAYS } from '@cellport/shared/schemas/subscriptions';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { SubscriptionState } from '../../integrations/stripe/card-provider.js';
import { JOBS } from '../../jobs/job-kinds.js';
import type { JobQueue, ScheduledJob } from '../../jobs/queue.js';
import type { NotificationsService } from '../notifications/index.js';
import type { CardCustomers } from '../payments/index.js';
import { isoDay, subscriptionParams } from './subscription-texts.js';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';

const DAY_MS = 86_400_000;
const REMIND_JOB = JOBS.subscriptionRemind;
const SANDBOX_DUE_JOB = JOBS.subscriptionSandboxDue;

/** What an event told that the customer must hear of: a failed charge, once per event id. */
export interface ChargeFailure { eventId: string; message: string | null }

export interface SubscriptionSyncDeps {
  repo: SubscriptionsRepository;
  customers: CardCustomers;
  notifications: NotificationsService;
  jobs: JobQueue;
  ctx: Pick<AppContext, 'log'>;
}

/**
 * Keeps our row of a card subscription true to the provider. Every event about one (paid, failed, updated, deleted),
 * and every change the customer or the console makes, ends here: the subscription is read from the provider (never
 * inside a transaction), then written in one transaction with what follows from it — the reminder before the next
 * charge, the sandbox's next due time (Stripe keeps its own schedule), and the customer's e-mail when a charge failed
 * or the subscription ended.
 */
export class SubscriptionSync {
  constructor(private readonly deps: SubscriptionSyncDeps) {}

  /** Reads the subscription from the provider and applies it. Returns false for a subscription we do not know. */
  async sync(subscriptionId: string, failure?: ChargeFailure): Promise<boolean> {
    const state = await this.deps.customers.provider().retrieveSubscription(subscriptionId);
    return this.apply(state, failure);
  }

  /**
   * Applies a state the provider has just answered (an update or a cancel we asked for). `also` runs in the same
   * transaction with the row as written (the console's audit entry commits with the change it records).
   */
  async apply(state: SubscriptionState, failure?: ChargeFailure, also?: (tx: Tx, row: SubscriptionRow) => Promise<void>): Promise<boolean> {
    const { repo, notifications, ctx } = this.deps;
    const applied = await repo.transaction(async (tx) => {
      const result = await repo.applyState(tx, state, failure ? failure.message : undefined);
      if (!result) return false;
      await this.schedule(tx, state);
      const row = await repo.one(state.id, tx);
      if (!row) return true;
      if (also) await also(tx, row);
      const params = subscriptionParams(row);
      if (state.status === 'canceled' && result.before !== 'canceled') {
        await notifications.notify(row.user_id, 'other', 'subscription_ended', params, tx);
      } else if (failure && state.status !== 'canceled' && await repo.firstTimeTold(tx, failure.eventId, state.id)) {
        await notifications.notify(row.user_id, 'other', 'subscription_charge_failed', {
          ...params, date: state.nextRetryAt ? isoDay(state.nextRetryAt) : '',
        }, tx);
      }
      return true;
    });
    if (!applied) ctx.log.warn({ subscription: state.id }, 'card subscription we do not know; nothing recorded');
    return applied;
  }

  /**
   * The jobs the state calls for. Keys carry the time they act at, so a state applied twice schedules once, and a
   * moved period schedules afresh while the old job finds its time gone and does nothing.
   */
  private async schedule(tx: Tx, state: SubscriptionState): Promise<void> {
    const jobs: ScheduledJob[] = [];
    const end = state.currentPeriodEnd;
    if (state.status === 'active' && !state.cancelAtPeriodEnd && end) {
      jobs.push({
        kind: REMIND_JOB, key: `${REMIND_JOB.name}:${state.id}:${end.toISOString()}`,
        runAt: new Date(end.getTime() - SUBSCRIPTION_REMINDER_DAYS * DAY_MS), payload: { subscriptionId: state.id, chargeAt: end.toISOString() },
      });
    }
    // The sandbox has no clock of its own: a job runs what Stripe would do when the period ends or a retry is due.
    if (this.deps.customers.sandbox()) {
      const due = state.status === 'past_due' ? state.nextRetryAt : state.status === 'active' ? end : null;
      if (due) {
        jobs.push({ kind: SANDBOX_DUE_JOB, key: `${SANDBOX_DUE_JOB.name}:${state.id}:${due.toISOString()}`, runAt: due, payload: { subscriptionId: state.id, dueAt: due.toISOString() } });
      }
    }
    await this.deps.jobs.schedule(tx, jobs);
  }
}
