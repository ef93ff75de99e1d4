import { couponDiscount, unitPrice, type Coupon } from '@cellport/shared/schemas/catalog';
import { balanceEffect, type BalanceEffect } from '../../payments';
import type { PaymentMethod } from '../components/payment-methods';

export interface PriceSummary {
  subtotal: bigint;
  discount: bigint;
  total: bigint;
  /** What the chosen method does to the balance: only paying from the balance takes the total off it. */
  effect: BalanceEffect;
  /** True when the balance pays, is known, and does not cover the total. */
  short: boolean;
}

/** The order's money in minor units, computed the way the server charges it (shared unitPrice, couponDiscount). */
export function priceSummary(price: string, quantity: number, coupon: Coupon | null, balance: string | null, method: PaymentMethod = 'balance'): PriceSummary {
  const subtotal = unitPrice(BigInt(price)) * BigInt(Math.max(0, Math.trunc(quantity)));
  const discount = coupon ? couponDiscount(subtotal, coupon) : 0n;
  const total = subtotal - discount;
  const effect = balanceEffect(method, total, balance);
  return { subtotal, discount, total, effect, short: effect.method === 'balance' && effect.short };
}
