import type { Selectable } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { LocalizedNames } from '../../db/tables/catalog.js';
import type { OrderProvider, PaymentOrdersTable, StoredText } from '../../db/tables/payments.js';
import type { NamedPort } from '../notifications/index.js';

export type { OrderDetails, OrderKind, OrderProvider } from '../../db/tables/payments.js';

export type OrderRow = Selectable<PaymentOrdersTable>;

/** The names the views of some orders show (OrdersRepository.names reads them in one round of queries). */
export interface OrderNames {
  tariffs: Array<{ id: string; names: LocalizedNames }>;
  countries: Array<{ id: string; code: string; names: LocalizedNames }>;
  ports: Array<{ id: string } & NamedPort>;
}
type Q = Database | Tx;

/** A new order: what the customer pays for (the quote's fields) and how. */
export interface NewOrder {
  userId: string; provider: OrderProvider; kind: OrderRow['kind']; details: OrderRow['details']; amount: bigint; description: string;
  descriptionText?: StoredText | null;
  providerAmount: bigint; lng: string;
  coin?: 'btc' | 'usdt' | null; address?: string | null; expiresAt?: Date | null; externalId?: string | null;
}

/**
 * Payment orders (money on its way in through a provider) and what pricing and the API views read beside them.
 * Writes that belong to a larger unit of work take the caller's transaction.
 */
export class OrdersRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  create(input: NewOrder, q: Q = this.db): Promise<OrderRow> {
    return q.insertInto('payment_orders').values({
      user_id: input.userId, provider: input.provider, kind: input.kind, details: JSON.stringify(input.details),
      amount: input.amount, provider_amount: input.providerAmount, coin: input.coin ?? null, address: input.address ?? null,
      description: input.description, description_text: input.descriptionText ? JSON.stringify(input.descriptionText) : null,
      language: input.lng, external_id: input.externalId ?? null,
      fulfil_error: null, expires_at: input.expiresAt ?? null, completed_at: null,
    }).returningAll().executeTakeFirstOrThrow();
  }

  /** The customer's order; undefined when it is not theirs. */
  own(userId: string, id: string, q: Q = this.db): Promise<OrderRow | undefined> {
    return q.selectFrom('payment_orders').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  pending(userId: string): Promise<OrderRow[]> {
    return this.db.selectFrom('payment_orders').selectAll().where('user_id', '=', userId).where('status', '=', 'pending')
      .orderBy('created_at', 'desc').limit(200).execute();
  }

  activeCrypto(userId: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('payment_orders').selectAll().where('user_id', '=', userId)
      .where('provider', '=', 'crypto').where('status', '=', 'pending').executeTakeFirst();
  }

  /** Cancels the customer's order if it is pending; undefined otherwise. */
  cancelPending(tx: Tx, userId: string, id: string): Promise<OrderRow | undefined> {
    return tx.updateTable('payment_orders').set({ status: 'cancelled' })
      .where('id', '=', id).where('user_id', '=', userId).where('status', '=', 'pending').returningAll().executeTakeFirst();
  }

  /** Cancels the customer's pending crypto order, if any (one is active at a time; a unique index backs this). */
  async cancelPendingCrypto(tx: Tx, userId: string): Promise<void> {
    await tx.updateTable('payment_orders').set({ status: 'cancelled' })
      .where('user_id', '=', userId).where('provider', '=', 'crypto').where('status', '=', 'pending').execute();
  }

  async setExternalId(orderId: string, externalId: string, q: Q = this.db): Promise<void> {
    await q.updateTable('payment_orders').set({ external_id: externalId }).where('id', '=', orderId).execute();
  }

  async setExternalIdIfUnset(orderId: string, externalId: string): Promise<void> {
    await this.db.updateTable('payment_orders').set({ external_id: externalId }).where('id', '=', orderId).where('external_id', 'is', null).execute();
  }

  async failIfPending(orderId: string): Promise<void> {
    await this.db.updateTable('payment_orders').set({ status: 'failed' }).where('id', '=', orderId).where('status', '=', 'pending').execute();
  }

  /** The customer's order created for a provider's object (a card payment intent). */
  async ownByExternalId(userId: string, externalId: string): Promise<{ id: string } | undefined> {
    return this.db.selectFrom('payment_orders').select('id')
      .where('external_id', '=', externalId).where('user_id', '=', userId).executeTakeFirst();
  }

  /** The order, locked for the transaction (concurrent deliveries and scans of one order queue here). */
  lock(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
    return tx.selectFrom('payment_orders').selectAll().where('id', '=', orderId).forUpdate().executeTakeFirst();
  }

  /** The customer's order, locked for the transaction. */
  lockOwn(tx: Tx, orderId: string, userId: string): Promise<OrderRow | undefined> {
    return tx.selectFrom('payment_orders').selectAll().where('id', '=', orderId).where('user_id', '=', userId)
      .forUpdate().executeTakeFirst();
  }

  state(tx: Tx, orderId: string) {
    return tx.selectFrom('payment_orders').select(['status', 'expires_at']).where('id', '=', orderId).executeTakeFirstOrThrow();
  }

  expireIfPending(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
    return tx.updateTable('payment_orders').set({ status: 'expired' })
      .where('id', '=', orderId).where('status', '=', 'pending').returningAll().executeTakeFirst();
  }

  async setReceived(tx: Tx, orderId: string, received: bigint): Promise<void> {
    await tx.updateTable('payment_orders').set({ received }).where('id', '=', orderId).execute();
  }

  complete(tx: Tx, orderId: string, fulfilError: string | null): Promise<OrderRow> {
    return tx.updateTable('payment_orders')
      .set({ status: 'completed', completed_at: new Date(), fulfil_error: fulfilError })
      .where('id', '=', orderId).returningAll().executeTakeFirstOrThrow();
  }

  /** A card order by its id (from the event's metadata) or else by the payment intent it was created with. */
  async cardOrder(orderId: string | null, intentId: string | null): Promise<OrderRow | undefined> {
    let q = this.db.selectFrom('payment_orders').selectAll().where('provider', '=', 'card');
    if (orderId) q = q.where('id', '=', orderId);
    else if (intentId) q = q.where('external_id', '=', intentId);
    else return undefined;
    return q.executeTakeFirst();
  }

  paypalOrder(orderId: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('payment_orders').selectAll().where('id', '=', orderId).where('provider', '=', 'paypal').executeTakeFirst();
  }

  /** The customer's live ports of a renewal basket, with their prices and countries. */
  basketPorts(userId: string, ids: string[]) {
    return this.db.selectFrom('ports').innerJoin('tariffs', 'tariffs.id', 'ports.tariff_id')
      .innerJoin('modems', 'modems.id', 'ports.modem_id')
      .select(['ports.id', 'ports.name', 'ports.tariff_id', 'tariffs.price', 'tariffs.period_days', 'modems.country_id'])
      .where('ports.id', 'in', ids).where('ports.user_id', '=', userId).where('ports.status', '<>', 'released').execute();
  }

  country(countryId: string) {
    return this.db.selectFrom('countries').select(['id', 'names']).where('id', '=', countryId).executeTakeFirst();
  }

  /** The tariff, country and port names the API views of `rows` show. */
  async names(rows: OrderRow[], q: Q = this.db): Promise<OrderNames> {
    const tariffIds = [...new Set(rows.map((r) => r.details.tariff_id).filter((x): x is string => !!x))];
    const countryIds = [...new Set(rows.map((r) => r.details.country_id).filter((x): x is string => !!x))];
    const portIds = [...new Set(rows.flatMap((r) => Object.keys(r.details.basket ?? {})))];
    const [tariffs, countries, ports] = await Promise.all([
      tariffIds.length ? q.selectFrom('tariffs').select(['id', 'names']).where('id', 'in', tariffIds).execute() : [],
      countryIds.length ? q.selectFrom('countries').select(['id', 'code', 'names']).where('id', 'in', countryIds).execute() : [],
      portIds.length ? q.selectFrom('ports').select(['id', 'name', 'default_number']).where('id', 'in', portIds).execute() : [],
    ]);
    return { tariffs, countries, ports };
  }
}
