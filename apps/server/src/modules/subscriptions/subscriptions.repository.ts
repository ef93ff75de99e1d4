import type { Selectable } from 'kysely';
import type { SubscriptionState } from '../../integrations/stripe/card-provider.js';
import type { Database, Tx } from '../../db/database.js';
import type { CardSubscriptionStatus, CardSubscriptionsTable } from '../../db/tables/payments.js';
import type { NamedPort } from '../notifications/index.js';

/** A subscription row (its table's columns but the sync time) with its owner's e-mail, language and card customer, and its ports. */
export type SubscriptionRow = Omit<Selectable<CardSubscriptionsTable>, 'synced_at'> & {
  email: string;
  language: string;
  card_customer_id: string | null;
  ports: Array<{ id: string } & NamedPort>;
};

/** Whether a live card subscription (active or past_due, not set to end) renews this port when its period ends. */
export async function renewedByCardSubscription(tx: Tx, portId: string): Promise<boolean> {
  const row = await tx.selectFrom('card_subscriptions as s').innerJoin('payment_ports as pp', 'pp.payment_id', 's.order_id')
    .select('s.id').where('pp.port_id', '=', portId).where('s.status', 'in', ['active', 'past_due'])
    .where('s.cancel_at_period_end', '=', false).executeTakeFirst();
  return row !== undefined;
}

/** The card subscriptions' rows: read for the customer and the console, and written from the provider's state. */
export class SubscriptionsRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  private select(q: Database | Tx) {
    return q.selectFrom('card_subscriptions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('payment_accounts as a', 'a.user_id', 's.user_id')
      .select([
        's.id', 's.user_id', 's.order_id', 'u.email', 'u.language', 'a.card_customer_id', 's.status', 's.amount', 's.interval_days',
        's.cancel_at_period_end', 's.current_period_end', 's.next_charge_at', 's.payment_method_id', 's.card_brand', 's.card_last4',
        's.last_failure', 's.canceled_at', 's.created_at',
      ]);
  }

  /** Rows with their ports (the ports the first order bought; each charge renews them), live subscriptions first. */
  private async withPorts(rows: Array<Omit<SubscriptionRow, 'ports'>>, q: Database | Tx = this.db): Promise<SubscriptionRow[]> {
    if (!rows.length) return [];
    const ports = await q.selectFrom('payment_ports').innerJoin('ports', 'ports.id', 'payment_ports.port_id')
      .select(['payment_ports.payment_id', 'ports.id', 'ports.name', 'ports.default_number'])
      .where('payment_ports.payment_id', 'in', rows.map((r) => r.order_id)).orderBy('ports.name').execute();
    const rank = (r: Omit<SubscriptionRow, 'ports'>) => (r.status === 'canceled' ? 1 : r.status === 'incomplete' ? 2 : 0);
    return rows
      .map((r) => ({ ...r, ports: ports.filter((p) => p.payment_id === r.order_id).map((p) => ({ id: p.id, name: p.name, default_number: p.default_number })) }))
      .sort((a, b) => rank(a) - rank(b) || b.created_at.getTime() - a.created_at.getTime());
  }

  /** The customer's subscriptions; those never paid (an abandoned card form) are left out. */
  async ofUser(userId: string): Promise<SubscriptionRow[]> {
    const rows = await this.select(this.db).where('s.user_id', '=', userId).where('s.status', '<>', 'incomplete').execute();
    return this.withPorts(rows);
  }

  async one(id: string, q: Database | Tx = this.db): Promise<SubscriptionRow | undefined> {
    const row = await this.select(q).where('s.id', '=', id).executeTakeFirst();
    return row ? (await this.withPorts([row], q))[0] : undefined;
  }

  /** The customer's own subscription, or undefined (another customer's is not found either). */
  async own(userId: string, id: string): Promise<SubscriptionRow | undefined> {
    const row = await this.select(this.db).where('s.id', '=', id).where('s.user_id', '=', userId).executeTakeFirst();
    return row ? (await this.withPorts([row]))[0] : undefined;
  }

  /** The console's list: everyone's, or one customer's, by status; newest first, at most 500. */
  async list(filter: { userId?: string | undefined; status?: CardSubscriptionStatus | undefined }): Promise<SubscriptionRow[]> {
    let q = this.select(this.db).where('s.status', '<>', 'incomplete');
    if (filter.status) q = q.where('s.status', '=', filter.status);
    if (filter.userId) q = q.where('s.user_id', '=', filter.userId);
    return this.withPorts(await q.orderBy('s.created_at', 'desc').limit(500).execute());
  }

  /** Locks the row for a job that acts on it. */
  lock(tx: Tx, id: string) {
    return tx.selectFrom('card_subscriptions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  /**
   * Writes the state the provider holds now. The next charge is the period's end while active and not ending, the
   * retry while past_due, else none. The card is kept when the provider reports none (a subscription that ended).
   */
  async applyState(tx: Tx, state: SubscriptionState, lastFailure?: string | null): Promise<{ before: CardSubscriptionStatus; row: { user_id: string; next_charge_at: Date | null; current_period_end: Date | null; status: CardSubscriptionStatus; cancel_at_period_end: boolean } } | undefined> {
    const before = await tx.selectFrom('card_subscriptions').select('status').where('id', '=', state.id).forUpdate().executeTakeFirst();
    if (!before) return undefined;
    const next = state.status === 'past_due' ? state.nextRetryAt
      : state.status === 'active' && !state.cancelAtPeriodEnd ? state.currentPeriodEnd : null;
    const row = await tx.updateTable('card_subscriptions').set({
      status: state.status,
      cancel_at_period_end: state.status === 'canceled' ? false : state.cancelAtPeriodEnd,
      current_period_end: state.currentPeriodEnd,
      next_charge_at: next,
      canceled_at: state.canceledAt,
      synced_at: new Date(),
      ...(state.card ? { payment_method_id: state.card.paymentMethodId, card_brand: state.card.brand, card_last4: state.card.last4 } : {}),
      ...(lastFailure !== undefined ? { last_failure: lastFailure } : state.status === 'active' ? { last_failure: null } : {}),
    }).where('id', '=', state.id)
      .returning(['user_id', 'next_charge_at', 'current_period_end', 'status', 'cancel_at_period_end']).executeTakeFirstOrThrow();
    return { before: before.status, row };
  }

  /** Records that an event told the customer something; false when it did already (a redelivery). */
  async firstTimeTold(tx: Tx, eventId: string, subscriptionId: string): Promise<boolean> {
    const row = await tx.insertInto('card_subscription_events').values({ event_id: eventId, subscription_id: subscriptionId })
      .onConflict((oc) => oc.column('event_id').doNothing()).returning('event_id').executeTakeFirst();
    return row !== undefined;
  }
}
