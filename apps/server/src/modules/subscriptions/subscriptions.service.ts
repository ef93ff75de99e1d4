import type { Language } from '@cellport/shared';
import type { AdminSubscription, Subscription, SubscriptionStatus } from '@cellport/shared/schemas/subscriptions';
import type { SubscriptionState } from '../../integrations/stripe/card-provider.js';
import { AppError } from '../../lib/app-error.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import { cardError, type CardCustomers } from '../payments/index.js';
import type { SubscriptionSync } from './subscription-sync.js';
import { toAdminSubscription, toSubscription } from './subscription-view.js';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';

/**
 * What a customer does with their card subscriptions (see, cancel at the period's end, resume, change the card) and
 * what the console does (see everyone's, end one). The provider is asked first, outside any transaction; what it
 * answers is then written through SubscriptionSync, as its webhook would (which, arriving later, changes nothing).
 */
export class SubscriptionsService {
  constructor(
    private readonly repo: SubscriptionsRepository,
    private readonly customers: CardCustomers,
    private readonly sync: SubscriptionSync,
    private readonly audit: AuditLog,
  ) {}

  async list(userId: string, lng: Language): Promise<Subscription[]> {
    return (await this.repo.ofUser(userId)).map((r) => toSubscription(r, lng));
  }

  /**
   * Cancel: an active subscription charges nothing more and ends with the period already paid for (Stripe's
   * cancel_at_period_end). One whose last charge failed (past_due) has no paid period ahead: it ends now, so the
   * card is not tried again.
   */
  async cancel(userId: string, id: string): Promise<Subscription> {
    const row = await this.own(userId, id);
    if (row.cancel_at_period_end) throw new AppError('SUBSCRIPTION_ALREADY_CANCELLING');
    const provider = this.customers.provider();
    const state = await (row.status === 'past_due'
      ? provider.cancelSubscriptionNow(id)
      : provider.updateSubscription(id, { cancelAtPeriodEnd: true })).catch(cardError);
    return this.applied(state);
  }

  /** Resume: takes back a cancel before the period ends; the charges go on as before. */
  async resume(userId: string, id: string): Promise<Subscription> {
    const row = await this.own(userId, id);
    if (!row.cancel_at_period_end) throw new AppError('SUBSCRIPTION_NOT_CANCELLING');
    const state = await this.customers.provider().updateSubscription(id, { cancelAtPeriodEnd: false }).catch(cardError);
    return this.applied(state);
  }

  /** Charges another of the customer's saved cards from now on (the provider refuses a card that is not theirs). */
  async changeCard(userId: string, id: string, paymentMethodId: string): Promise<Subscription> {
    await this.own(userId, id);
    const state = await this.customers.provider().updateSubscription(id, { paymentMethodId }).catch(cardError);
    return this.applied(state);
  }

  async adminList(filter: { userId?: string | undefined; status?: SubscriptionStatus | undefined }): Promise<AdminSubscription[]> {
    return (await this.repo.list(filter)).map(toAdminSubscription);
  }

  /** The console ends a subscription now, or at its period's end; audited with the state before and after. */
  async adminCancel(actor: AuditActor, id: string, input: { reason: string; when?: 'now' | 'period_end' | undefined }): Promise<AdminSubscription> {
    const before = await this.repo.one(id);
    if (!before || before.status === 'incomplete') throw new AppError('SUBSCRIPTION_NOT_FOUND');
    if (before.status === 'canceled') throw new AppError('SUBSCRIPTION_ENDED');
    const when = input.when ?? 'now';
    if (when === 'period_end' && before.cancel_at_period_end) throw new AppError('SUBSCRIPTION_ALREADY_CANCELLING');
    const provider = this.customers.provider();
    const state = await (when === 'now' ? provider.cancelSubscriptionNow(id) : provider.updateSubscription(id, { cancelAtPeriodEnd: true })).catch(cardError);
    await this.sync.apply(state, undefined, (tx, after) => this.audit.record(tx, actor, {
      action: 'subscription.cancel', targetType: 'subscription', targetId: id,
      before: auditView(before), after: { ...auditView(after), when, reason: input.reason },
    }));
    return toAdminSubscription((await this.repo.one(id))!);
  }

  private async own(userId: string, id: string): Promise<SubscriptionRow> {
    const row = await this.repo.own(userId, id);
    if (!row || row.status === 'incomplete') throw new AppError('SUBSCRIPTION_NOT_FOUND');
    if (row.status === 'canceled') throw new AppError('SUBSCRIPTION_ENDED');
    return row;
  }

  private async applied(state: SubscriptionState): Promise<Subscription> {
    await this.sync.apply(state);
    return toSubscription((await this.repo.one(state.id))!);
  }
}

const auditView = (r: SubscriptionRow) => ({
  owner: r.email, userId: r.user_id, status: r.status, cancelAtPeriodEnd: r.cancel_at_period_end, amount: String(r.amount ?? 0n),
  ports: r.ports.map((p) => p.name),
});
