import type { Language } from '@cellport/shared';
import type { AppContext } from '../../context.js';
import type { Database, Tx } from '../../db/database.js';
import type { OrderProvider } from '../../db/tables/payments.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { Quote } from './order-pricing.js';
import type { OrderRow } from './order-view.js';
import { announcePendingCrypto } from './pending-crypto-poll.js';

/** Writes and reads payment orders, always scoped by the customer. */
export class OrdersService {
  constructor(private readonly ctx: AppContext) {}

  async create(q: Database | Tx, input: {
    userId: string; provider: OrderProvider; quote: Quote; providerAmount: bigint; lng: Language;
    coin?: 'btc' | 'usdt' | null; address?: string | null; expiresAt?: Date | null; externalId?: string | null;
  }): Promise<OrderRow> {
    return q.insertInto('payment_orders').values({
      user_id: input.userId, provider: input.provider, kind: input.quote.kind, details: JSON.stringify(input.quote.details),
      amount: input.quote.amount, provider_amount: input.providerAmount, coin: input.coin ?? null, address: input.address ?? null,
      description: input.quote.description, language: input.lng, external_id: input.externalId ?? null,
      fulfil_error: null, expires_at: input.expiresAt ?? null, completed_at: null,
    }).returningAll().executeTakeFirstOrThrow();
  }

  async own(userId: string, id: string, q: Database | Tx = this.ctx.db): Promise<OrderRow> {
    const row = await q.selectFrom('payment_orders').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  async pending(userId: string): Promise<OrderRow[]> {
    return this.ctx.db.selectFrom('payment_orders').selectAll().where('user_id', '=', userId).where('status', '=', 'pending')
      .orderBy('created_at', 'desc').limit(200).execute();
  }

  async activeCrypto(userId: string): Promise<OrderRow | undefined> {
    return this.ctx.db.selectFrom('payment_orders').selectAll().where('user_id', '=', userId)
      .where('provider', '=', 'crypto').where('status', '=', 'pending').executeTakeFirst();
  }

  /** Cancels the customer's own pending order; another customer's is not found (404), a finished one is 409. */
  async cancel(userId: string, id: string): Promise<void> {
    const done = await this.ctx.db.transaction().execute(async (tx) => {
      const row = await tx.updateTable('payment_orders').set({ status: 'cancelled' })
        .where('id', '=', id).where('user_id', '=', userId).where('status', '=', 'pending').returningAll().executeTakeFirst();
      // A crypto payment was the active one: its poll version moves with the commit.
      if (row) await announcePendingCrypto(tx, 'cancel', row);
      return row;
    });
    if (done) return;
    await this.own(userId, id);
    throw new AppError('PAYMENT_NOT_PENDING', 409);
  }
}
