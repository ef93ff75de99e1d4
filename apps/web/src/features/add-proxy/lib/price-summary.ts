import { couponDiscount, type Coupon } from '@cellport/shared/schemas/catalog';

export interface PriceSummary {
  subtotal: bigint;
  discount: bigint;
  total: bigint;
  /** null while the balance is unknown. */
  balanceAfter: bigint | null;
  /** True when the balance is known and does not cover the total. */
  short: boolean;
}

/** The order's money in minor units, computed the way the server charges it (shared couponDiscount). */
export function priceSummary(price: string, quantity: number, coupon: Coupon | null, balance: string | null): PriceSummary {
  const subtotal = BigInt(price) * BigInt(Math.max(0, Math.trunc(quantity)));
  const discount = coupon ? couponDiscount(subtotal, coupon) : 0n;
  const total = subtotal - discount;
  const balanceAfter = balance === null ? null : BigInt(balance) - total;
  return { subtotal, discount, total, balanceAfter, short: balanceAfter !== null && balanceAfter < 0n };
}
