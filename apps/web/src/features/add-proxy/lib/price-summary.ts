import type { Coupon } from '@cellport/shared/schemas/catalog';
import { purchasePrice } from '@cellport/shared/schemas/pricing';
import type { Trial } from '@cellport/shared/schemas/tariff-offers';
import { NO_DISCOUNTS, type VolumeDiscounts } from '@cellport/shared/schemas/volume-discounts';
import { balanceEffect, type BalanceEffect } from '../../payments';
import type { PaymentMethod } from '../components/payment-methods';

export interface PriceSummary {
  /** Unit price × quantity, or the trial's price. */
  subtotal: bigint;
  /** The tariff's volume step that applies (quantity and period added), and what it takes off. */
  volumePercent: number;
  volumeDiscount: bigint;
  /** What the coupon takes off what is left. */
  discount: bigint;
  total: bigint;
  /** What the chosen method does to the balance: only paying from the balance takes the total off it. */
  effect: BalanceEffect;
  /** True when the balance pays, is known, and does not cover the total. */
  short: boolean;
}

/** A tariff's trial and steps as the order uses them: `trial` set only when the customer chose the trial. */
export interface OrderOffers { discounts: VolumeDiscounts; periodDays: number; trial: Trial | null }

/** The order's money in minor units, computed the way the server charges it (the shared purchasePrice). */
export function priceSummary(
  price: string, quantity: number, coupon: Coupon | null, balance: string | null, method: PaymentMethod = 'balance',
  offers: OrderOffers = { discounts: NO_DISCOUNTS, periodDays: 0, trial: null },
): PriceSummary {
  const b = purchasePrice({
    price: BigInt(price), quantity, days: offers.periodDays, discounts: offers.discounts, trial: offers.trial, coupon,
  });
  const effect = balanceEffect(method, b.total, balance);
  return {
    subtotal: b.subtotal, volumePercent: b.volumePercent, volumeDiscount: b.volumeDiscount, discount: b.couponDiscount,
    total: b.total, effect, short: effect.method === 'balance' && effect.short,
  };
}
