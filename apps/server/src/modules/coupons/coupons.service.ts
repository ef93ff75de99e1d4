import type { Coupon } from '@cellport/shared/schemas/catalog';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { CouponRow, CouponsRepository } from './coupons.repository.js';

export interface CouponScope { tariffIds: string[]; countryIds: string[] }

export const couponToApi = (c: CouponRow): Coupon => (c.type === 'percent'
  ? { name: c.name, type: 'percent', percent: c.percent ?? 0 }
  : { name: c.name, type: 'fixed', amount: (c.amount ?? 0n).toString() });

/** Coupons: checked for display, and locked + redeemed inside the purchase transaction so limits hold. */
export class CouponsService {
  constructor(private readonly repo: CouponsRepository) {}

  /** What the Add Proxies page shows; nothing is reserved. */
  async check(userId: string, name: string, scope: CouponScope): Promise<Coupon> {
    const coupon = await this.repo.byName(name);
    await this.validate(undefined, coupon, userId, scope);
    return couponToApi(coupon!);
  }

  /**
   * Locks the coupon row for the rest of the transaction, so concurrent purchases with the same coupon queue up
   * and each sees the uses the previous ones committed. Throws the reason when it cannot be used.
   */
  async lockForRedemption(tx: Tx, userId: string, name: string, scope: CouponScope): Promise<CouponRow> {
    const coupon = await this.repo.byName(name, tx);
    await this.validate(tx, coupon, userId, scope);
    return coupon!;
  }

  async redeem(tx: Tx, couponId: string, userId: string, paymentId: string): Promise<void> {
    await this.repo.redeem(tx, couponId, userId, paymentId);
  }

  private async validate(q: Tx | undefined, coupon: CouponRow | undefined, userId: string, scope: CouponScope): Promise<void> {
    if (!coupon) throw new AppError('COUPON_UNKNOWN');
    const now = Date.now();
    if ((coupon.valid_from && coupon.valid_from.getTime() > now) || (coupon.valid_until && coupon.valid_until.getTime() <= now)) {
      throw new AppError('COUPON_EXPIRED');
    }
    if (coupon.max_uses !== null && coupon.used_count >= coupon.max_uses) throw new AppError('COUPON_USED_UP');
    if (coupon.max_uses_per_user !== null) {
      if (await this.repo.usesBy(q, coupon.id, userId) >= coupon.max_uses_per_user) throw new AppError('COUPON_USED_UP');
    }
    if (coupon.tariff_id && scope.tariffIds.some((t) => t !== coupon.tariff_id)) throw new AppError('COUPON_NOT_APPLICABLE');
    if (coupon.country_id && scope.countryIds.some((c) => c !== coupon.country_id)) throw new AppError('COUPON_NOT_APPLICABLE');
  }
}
