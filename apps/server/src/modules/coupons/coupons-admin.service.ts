import type {
  AdminCoupon, CouponPatchRequest, CouponRedemptionsResponse, CouponRequest,
} from '@cellport/shared/schemas/admin/coupons';
import { AppError } from '../../lib/app-error.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import type { CouponRow, CouponsRepository, CouponValues } from './coupons.repository.js';

const toCoupon = (c: CouponRow): AdminCoupon => ({
  id: c.id, name: c.name, type: c.type, percent: c.type === 'percent' ? c.percent : null,
  amount: c.type === 'fixed' && c.amount !== null ? BigInt(c.amount).toString() : null,
  validFrom: c.valid_from?.toISOString() ?? null, validUntil: c.valid_until?.toISOString() ?? null, maxUses: c.max_uses,
  maxUsesPerUser: c.max_uses_per_user, usedCount: c.used_count, tariffId: c.tariff_id, countryId: c.country_id,
  createdAt: c.created_at.toISOString(),
});

/** The rules the table's checks enforce, as an answer instead of a 500: one kind of discount, a window that ends after it starts. */
function checked(v: CouponValues): CouponValues {
  const out = { ...v, percent: v.type === 'percent' ? v.percent : null, amount: v.type === 'fixed' ? v.amount : null };
  if ((out.type === 'percent' && !out.percent) || (out.type === 'fixed' && !out.amount)
    || (out.valid_from && out.valid_until && out.valid_until <= out.valid_from)) {
    throw new AppError('COUPON_INVALID');
  }
  return out;
}
const date = (s: string | null | undefined) => (s ? new Date(s) : null);

/** Coupons with their limits, and who used them. */
export class CouponsAdminService {
  constructor(private readonly repo: CouponsRepository, private readonly audit: AuditLog) {}

  async list(): Promise<AdminCoupon[]> {
    return (await this.repo.list()).map(toCoupon);
  }

  create(actor: AuditActor, req: CouponRequest): Promise<AdminCoupon> {
    return this.repo.write(async (tx) => {
      const values = checked({
        name: req.name, type: req.type, percent: req.percent ?? null, amount: req.amount ? BigInt(req.amount) : null,
        valid_from: date(req.validFrom), valid_until: date(req.validUntil), max_uses: req.maxUses ?? null,
        max_uses_per_user: req.maxUsesPerUser ?? null, tariff_id: req.tariffId ?? null, country_id: req.countryId ?? null,
      });
      const row = await this.repo.insert(tx, values);
      await this.audit.record(tx, actor, { action: 'coupon.create', targetType: 'coupon', targetId: row.id, before: null, after: row });
      return toCoupon(row);
    });
  }

  update(actor: AuditActor, id: string, req: CouponPatchRequest): Promise<AdminCoupon> {
    return this.repo.write(async (tx) => {
      const before = await this.repo.byId(id, tx);
      if (!before) throw new AppError('COUPON_NOT_FOUND');
      const pick = <K extends keyof CouponPatchRequest, V>(k: K, current: V, map: (v: NonNullable<CouponPatchRequest[K]>) => V): V =>
        req[k] === undefined ? current : req[k] === null ? (null as V) : map(req[k] as NonNullable<CouponPatchRequest[K]>);
      const values = checked({
        name: req.name ?? before.name, type: req.type ?? before.type,
        percent: pick('percent', before.percent, (v) => v), amount: pick('amount', before.amount, (v) => BigInt(v)),
        valid_from: pick('validFrom', before.valid_from, (v) => new Date(v)), valid_until: pick('validUntil', before.valid_until, (v) => new Date(v)),
        max_uses: pick('maxUses', before.max_uses, (v) => v), max_uses_per_user: pick('maxUsesPerUser', before.max_uses_per_user, (v) => v),
        tariff_id: pick('tariffId', before.tariff_id, (v) => v), country_id: pick('countryId', before.country_id, (v) => v),
      });
      const row = await this.repo.update(tx, id, values);
      await this.audit.record(tx, actor, { action: 'coupon.update', targetType: 'coupon', targetId: id, before, after: row });
      return toCoupon(row);
    });
  }

  /** Only a coupon nobody used; a used one is ended by setting validUntil. */
  remove(actor: AuditActor, id: string): Promise<void> {
    return this.repo.write(async (tx) => {
      const before = await this.repo.byId(id, tx);
      if (!before) throw new AppError('COUPON_NOT_FOUND');
      if (await this.repo.inUse(tx, id)) throw new AppError('IN_USE');
      await this.repo.delete(tx, id);
      await this.audit.record(tx, actor, { action: 'coupon.delete', targetType: 'coupon', targetId: id, before, after: null });
    });
  }

  async redemptions(id: string): Promise<CouponRedemptionsResponse> {
    const coupon = await this.repo.byId(id);
    if (!coupon) throw new AppError('COUPON_NOT_FOUND');
    const rows = await this.repo.redemptions(id);
    return {
      coupon: toCoupon(coupon),
      items: rows.map((r) => ({
        id: String(r.id), userId: r.user_id, email: r.email, paymentId: r.payment_id, paymentAmount: BigInt(r.amount).toString(),
        discount: BigInt(r.discount).toString(), paymentStatus: r.status, createdAt: r.created_at.toISOString(),
      })),
    };
  }
}
