import { couponDiscount, roundToCent, unitPrice, type CouponTerms } from './charges.js';
import type { Trial } from './tariff-offers.js';
import { volumePercent, type VolumeDiscounts } from './volume-discounts.js';

// THE price of a purchase with a tariff's trial or volume discounts (issue 27, items 2 and 8; decision 041). The
// quote, the Add Proxies page, every checkout, the ledger debit, the invoice and the purchase line all price an order
// with `purchasePrice`, so they show and charge one amount, each line whole cents.

/** The discount of `percent` on a total of whole cents: what is left to pay is rounded once, half-up (roundToCent). */
export function percentOff(total: bigint, percent: number): bigint {
  if (percent <= 0) return 0n;
  return total - roundToCent(total * BigInt(100 - percent), 100n);
}

/** The money of an order, each line whole cents: subtotal − volume discount − coupon discount = total. */
export interface PriceBreakdown {
  /** Unit price × quantity (the trial's price for a trial). */
  subtotal: bigint;
  volumePercent: number;
  volumeDiscount: bigint;
  couponDiscount: bigint;
  total: bigint;
}

/**
 * THE price of a purchase of new ports (issue 27, items 2 and 8). A trial is one port at the trial's price with no
 * discount of any kind; otherwise the tariff's unit price × quantity, less the volume step, less the coupon on what
 * is left. `days` is the tariff's period in days (one period is bought).
 */
export function purchasePrice(input: {
  price: bigint; quantity: number; days: number; discounts: VolumeDiscounts;
  trial: Trial | null; coupon: CouponTerms | null;
}): PriceBreakdown {
  if (input.trial) {
    const subtotal = roundToCent(BigInt(input.trial.price));
    return { subtotal, volumePercent: 0, volumeDiscount: 0n, couponDiscount: 0n, total: subtotal };
  }
  const subtotal = unitPrice(input.price) * BigInt(Math.max(0, Math.trunc(input.quantity)));
  const percent = volumePercent(input.discounts, input.quantity, input.days);
  const volumeDiscount = percentOff(subtotal, percent);
  const couponOff = input.coupon ? couponDiscount(subtotal - volumeDiscount, input.coupon) : 0n;
  return { subtotal, volumePercent: percent, volumeDiscount, couponDiscount: couponOff, total: subtotal - volumeDiscount - couponOff };
}
