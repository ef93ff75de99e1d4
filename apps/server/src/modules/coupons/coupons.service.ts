import type { Coupon } from '@cellport/shared/schemas/catalog';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { CouponsTable } from '../../db/tables/ledger.js';
import { AppError } from '../../lib/app-error.js';

type CouponRow = Omit<CouponsTable, 'id' | 'used_count' | 'created_at'> & { id: string; used_count: number; created_at: Date };
export interface CouponScope { tariffIds: string[]; countryIds: string[] }

export const couponToApi = (c: CouponRow): Coupon => (c.type === 'percent'
  ? { name: c.name, type: 'percent', percent: c.percent ?? 0 }
  : { name: c.name, type: 'fixed', amount: (c.amount ?? 0n).toString() });

/** Coupons: checked for display, and locked + redeemed inside the purchase transaction so limits hold. */
export class CouponsService {
  constructor(private readonly db: Database) {}

  /** What the Add Proxies page shows; nothing is reserved. */
  async check(userId: string, name: string, scope: CouponScope): Promise<Coupon> {
    const coupon = await this.db.selectFrom('coupons').selectAll().where(sql`lower(name)`, '=', name.trim().toLowerCase())
      .executeTakeFirst();
    await this.validate(this.db, coupon, userId, scope);
    return couponToApi(coupon!);
  }

  /**
   * Locks the coupon row for the rest of the transaction, so concurrent purchases with the same coupon queue up
   * and each sees the uses the previous ones committed. Throws the reason when it cannot be used.
   */
  async lockForRedemption(tx: Tx, userId: string, name: string, scope: CouponScope): Promise<CouponRow> {
    const coupon = await tx.selectFrom('coupons').selectAll().where(sql`lower(name)`, '=', name.trim().toLowerCase())
      .forUpdate().executeTakeFirst();
    await this.validate(tx, coupon, userId, scope);
    return coupon!;
  }

  async redeem(tx: Tx, couponId: string, userId: string, paymentId: string): Promise<void> {
    await tx.updateTable('coupons').set({ used_count: sql`used_count + 1` }).where('id', '=', couponId).execute();
    await tx.insertInto('coupon_redemptions').values({ coupon_id: couponId, user_id: userId, payment_id: paymentId }).execute();
  }

  private async validate(q: Database | Tx, coupon: CouponRow | undefined, userId: string, scope: CouponScope): Promise<void> {
    if (!coupon) throw new AppError('COUPON_UNKNOWN');
    const now = Date.now();
    if ((coupon.valid_from && coupon.valid_from.getTime() > now) || (coupon.valid_until && coupon.valid_until.getTime() <= now)) {
      throw new AppError('COUPON_EXPIRED');
    }
    if (coupon.max_uses !== null && coupon.used_count >= coupon.max_uses) throw new AppError('COUPON_USED_UP');
    if (coupon.max_uses_per_user !== null) {
      const mine = await q.selectFrom('coupon_redemptions').select(sql<string>`count(*)`.as('n'))
        .where('coupon_id', '=', coupon.id).where('user_id', '=', userId).executeTakeFirst();
      if (Number(mine?.n ?? 0) >= coupon.max_uses_per_user) throw new AppError('COUPON_USED_UP');
    }
    if (coupon.tariff_id && scope.tariffIds.some((t) => t !== coupon.tariff_id)) throw new AppError('COUPON_NOT_APPLICABLE');
    if (coupon.country_id && scope.countryIds.some((c) => c !== coupon.country_id)) throw new AppError('COUPON_NOT_APPLICABLE');
  }
}
