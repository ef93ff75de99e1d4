import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/pg-errors.js';
import type { CouponsTable } from '../../db/tables/ledger.js';
import { AppError } from '../../lib/app-error.js';

type Q = Database | Tx;
export type CouponRow = Omit<CouponsTable, 'id' | 'used_count' | 'created_at'> & { id: string; used_count: number; created_at: Date };
export type CouponValues = Omit<CouponRow, 'id' | 'used_count' | 'created_at'>;

/** Coupons, their redemptions, and what the console shows of who used one. */
export class CouponsRepository {
  constructor(private readonly db: Database) {}

  /** A console write: a name taken or a tariff or country that does not exist is an answer, not a 500. */
  async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS');
      if (isForeignKeyViolation(error)) throw new AppError('REFERENCE_INVALID');
      throw error;
    });
  }

  /** A coupon by its name, any case; `tx` locks it for the rest of the transaction. */
  async byName(name: string, tx?: Tx): Promise<CouponRow | undefined> {
    const query = (tx ?? this.db).selectFrom('coupons').selectAll().where(sql`lower(name)`, '=', name.trim().toLowerCase());
    return tx ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
  }

  async usesBy(q: Q | undefined, couponId: string, userId: string): Promise<number> {
    const mine = await (q ?? this.db).selectFrom('coupon_redemptions').select(sql<string>`count(*)`.as('n'))
      .where('coupon_id', '=', couponId).where('user_id', '=', userId).executeTakeFirst();
    return Number(mine?.n ?? 0);
  }

  async redeem(tx: Tx, couponId: string, userId: string, paymentId: string): Promise<void> {
    await tx.updateTable('coupons').set({ used_count: sql`used_count + 1` }).where('id', '=', couponId).execute();
    await tx.insertInto('coupon_redemptions').values({ coupon_id: couponId, user_id: userId, payment_id: paymentId }).execute();
  }

  async list(): Promise<CouponRow[]> {
    return this.db.selectFrom('coupons').selectAll().orderBy('created_at', 'desc').execute();
  }

  async byId(id: string, tx?: Tx): Promise<CouponRow | undefined> {
    const query = (tx ?? this.db).selectFrom('coupons').selectAll().where('id', '=', id);
    return tx ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
  }

  async insert(tx: Tx, values: CouponValues): Promise<CouponRow> {
    return tx.insertInto('coupons').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async update(tx: Tx, id: string, values: CouponValues): Promise<CouponRow> {
    return tx.updateTable('coupons').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** Whether a redemption or a payment names the coupon (then it is ended by validUntil, not deleted). */
  async inUse(tx: Tx, id: string): Promise<boolean> {
    const used = await tx.selectFrom('coupon_redemptions').select('id').where('coupon_id', '=', id).limit(1).executeTakeFirst();
    const paid = await tx.selectFrom('payments').select('id').where('coupon_id', '=', id).limit(1).executeTakeFirst();
    return Boolean(used || paid);
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('coupons').where('id', '=', id).execute();
  }

  /** Who used a coupon, with the payment, newest first (at most 1000). */
  async redemptions(id: string) {
    return this.db.selectFrom('coupon_redemptions as r')
      .innerJoin('users as u', 'u.id', 'r.user_id').innerJoin('payments as p', 'p.id', 'r.payment_id')
      .select(['r.id', 'r.user_id', 'u.email', 'r.payment_id', 'p.amount', 'p.discount', 'p.status', 'r.created_at'])
      .where('r.coupon_id', '=', id).orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(1000).execute();
  }
}
