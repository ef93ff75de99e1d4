import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { OrderRow } from './orders.repository.js';
import { likeFamily } from './refund-references.js';

/**
 * The payments module's queries besides the orders: payment accounts (deposit address index, card customer), card
 * subscriptions, and the ledger, payment and refund rows that refunds and IPNs check before taking money back.
 */
export class PaymentsRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * The account's derivation index for its deposit addresses, allocated once from a sequence (so two accounts never
   * share an address, and an address never changes). Concurrent first calls agree: the primary key keeps one row.
   */
  async addressIndex(userId: string): Promise<number> {
    const found = await this.db.selectFrom('payment_accounts').select('address_index').where('user_id', '=', userId).executeTakeFirst();
    if (found) return found.address_index;
    await this.db.insertInto('payment_accounts')
      .values({ user_id: userId, address_index: sql<number>`nextval('payment_address_index_seq')` })
      .onConflict((oc) => oc.column('user_id').doNothing()).execute();
    const row = await this.db.selectFrom('payment_accounts').select('address_index').where('user_id', '=', userId).executeTakeFirstOrThrow();
    return row.address_index;
  }

  /** The customer's e-mail, name and card customer id (the payment account row must exist: `addressIndex`). */
  cardHolder(userId: string) {
    return this.db.selectFrom('users').innerJoin('payment_accounts', 'payment_accounts.user_id', 'users.id')
      .select(['users.email', 'users.name', 'payment_accounts.card_customer_id']).where('users.id', '=', userId).executeTakeFirstOrThrow();
  }

  async setCardCustomer(userId: string, customerId: string): Promise<void> {
    await this.db.updateTable('payment_accounts').set({ card_customer_id: customerId }).where('user_id', '=', userId).execute();
  }

  async userOfCardCustomer(customerId: string): Promise<string | undefined> {
    const acc = await this.db.selectFrom('payment_accounts').select('user_id').where('card_customer_id', '=', customerId).executeTakeFirst();
    return acc?.user_id;
  }

  /** A subscription's order gets the first invoice's payment intent, with the subscription row, in one transaction. */
  async recordSubscription(subscriptionId: string, userId: string, orderId: string, intentId: string, plan: { amount: bigint; intervalDays: number }): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('card_subscriptions').values({
        id: subscriptionId, user_id: userId, order_id: orderId, amount: plan.amount, interval_days: plan.intervalDays,
      }).execute();
      await tx.updateTable('payment_orders').set({ external_id: intentId }).where('id', '=', orderId).execute();
    });
  }

  subscriptionOfOrder(orderId: string) {
    return this.db.selectFrom('card_subscriptions').select('id').where('order_id', '=', orderId).executeTakeFirst();
  }

  /** The subscription with its order's language. */
  subscription(subscriptionId: string) {
    return this.db.selectFrom('card_subscriptions').innerJoin('payment_orders', 'payment_orders.id', 'card_subscriptions.order_id')
      .select(['card_subscriptions.user_id', 'card_subscriptions.order_id', 'card_subscriptions.status', 'payment_orders.language'])
      .where('card_subscriptions.id', '=', subscriptionId).executeTakeFirst();
  }

  /** The live ports a payment (a subscription's first order) bought. */
  paidPorts(paymentId: string) {
    return this.db.selectFrom('payment_ports').innerJoin('ports', 'ports.id', 'payment_ports.port_id')
      .select('ports.id').where('payment_ports.payment_id', '=', paymentId).where('ports.status', '<>', 'released').execute();
  }

  /** What the ledger took back under a refund family (refund-references.ts): minus the sum of its entries. */
  async takenInFamily(tx: Tx, family: string): Promise<bigint> {
    const row = await tx.selectFrom('ledger_entries').select(sql<string>`coalesce(-sum(amount), 0)::text`.as('taken'))
      .where('reference', 'like', likeFamily(family)).executeTakeFirstOrThrow();
    return BigInt(row.taken);
  }

  /** Whether the ledger holds an entry under this reference (a replayed refund or dispute books nothing). */
  async isBooked(tx: Tx, reference: string): Promise<boolean> {
    const seen = await tx.selectFrom('ledger_entries').select('id').where('reference', '=', reference).executeTakeFirst();
    return seen !== undefined;
  }

  /** Whether the ledger holds an entry under any of these references. */
  async isAnyBooked(tx: Tx, references: string[]): Promise<boolean> {
    const seen = await tx.selectFrom('ledger_entries').select('id').where('reference', 'in', references).executeTakeFirst();
    return seen !== undefined;
  }

  /** The customer's USDT balance, locked for the transaction. */
  async lockUsdtBalance(tx: Tx, userId: string): Promise<bigint> {
    const balance = await tx.selectFrom('balances').select('amount').where('user_id', '=', userId).where('coin', '=', 'usdt')
      .forUpdate().executeTakeFirst();
    return balance ? BigInt(balance.amount) : 0n;
  }

  /**
   * Locks the payment row, if there is one (the console refund locks it too, so the two paths see each other's
   * bookings once the lock is theirs: each statement after it reads what the other committed).
   */
  lockPayment(tx: Tx, paymentId: string) {
    return tx.selectFrom('payments').select(['id', 'kind']).where('id', '=', paymentId).forUpdate().executeTakeFirst();
  }

  /**
   * A refund the operator sent to the source from the console ('manual': done by the operator at PayPal or the
   * chain; 'provider': through the card provider, claimed before the provider was called).
   */
  async providerRefund(tx: Tx, paymentId: string) {
    const row = await tx.selectFrom('payment_refunds').select(['amount', 'method']).where('payment_id', '=', paymentId)
      .where('method', '<>', 'balance').executeTakeFirst();
    return row ? { amount: BigInt(row.amount), method: row.method } : undefined;
  }

  async deleteRefund(tx: Tx, refundId: string): Promise<void> {
    await tx.deleteFrom('payment_refunds').where('id', '=', refundId).execute();
  }

  /** A paid order without ports to buy: its payment row, as a top-up. */
  async recordTopUp(tx: Tx, order: OrderRow, description: string): Promise<void> {
    await tx.insertInto('payments').values({
      id: order.id, user_id: order.user_id, provider: order.provider, kind: 'topup', status: 'completed', amount: order.amount,
      description, description_text: order.description_text ? JSON.stringify(order.description_text) : null,
      modem_count: 0, tariff_id: null, coupon: null, coupon_id: null,
    }).execute();
  }

  async savepoint(tx: Tx, name: 'fulfil' | 'renew'): Promise<void> {
    await sql`savepoint ${sql.raw(name)}`.execute(tx);
  }

  async releaseSavepoint(tx: Tx, name: 'fulfil' | 'renew'): Promise<void> {
    await sql`release savepoint ${sql.raw(name)}`.execute(tx);
  }

  async rollbackToSavepoint(tx: Tx, name: 'fulfil' | 'renew'): Promise<void> {
    await sql`rollback to savepoint ${sql.raw(name)}`.execute(tx);
  }
}
