// The money a customer is charged, in whole cents (decision 004): plain bigint arithmetic, no zod, so the web prices a
// basket without loading the catalog's schemas (issue 31, item 4). catalog.ts re-exports it.

/** What couponDiscount reads of a coupon (catalog.ts' Coupon has these fields). */
export interface CouponTerms {
  type: 'percent' | 'fixed';
  percent?: number | undefined;
  /** Minor units off the total, as a string. */
  amount?: string | undefined;
}

/** Micro-units (USD, USDT) in one cent. */
export const MICRO_PER_CENT = 10_000n;

/**
 * THE rounding of money a customer is charged (decision 004): `numerator / denominator` micro-units, rounded once,
 * half-up, to a whole cent ($0.005 → $0.01, $0.00499 → $0.00). Every charged amount that is not already whole cents
 * — a renewal for custom days, a coupon's percentage, a price typed with sub-cent digits — comes from here, so the
 * quote, the ledger debit, the invoice and the purchase line all show the one amount it gives.
 */
export function roundToCent(numerator: bigint, denominator = 1n): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError('roundToCent takes a non-negative amount and a positive divisor');
  const unit = denominator * MICRO_PER_CENT;
  return ((2n * numerator + unit) / (2n * unit)) * MICRO_PER_CENT;
}

/** What one port of a tariff costs per period, in whole cents (a tariff's price is charged as this). */
export const unitPrice = (price: bigint): bigint => roundToCent(price);

/**
 * Price of renewing one port, in whole cents: the tariff's unit price × periods, or pro rata for custom days:
 * price × days / periodDays, rounded half-up to the cent (roundToCent). 3 days of a $8.99 weekly port: $3.852857…
 * → $3.85. The server charges exactly this and invoices it; the web shows it before paying. Days must be ≥ 1.
 */
export function renewalPrice(price: bigint, periodDays: number, entry: { periods?: number; days?: number }): bigint {
  if (entry.periods !== undefined) return unitPrice(price) * BigInt(entry.periods);
  const days = entry.days ?? 0;
  if (!Number.isInteger(days) || days < 1) throw new RangeError('a renewal is for at least one day');
  return roundToCent(price * BigInt(days), BigInt(periodDays));
}

/**
 * Discount of a coupon on a total of whole cents, never more than the total, so that what is charged (total −
 * discount) is whole cents too: a percent coupon's charge is total × (100 − percent) / 100 rounded half-up to the
 * cent (roundToCent); a fixed coupon's amount is rounded to the cent the same way.
 */
export function couponDiscount(total: bigint, coupon: CouponTerms): bigint {
  const off = coupon.type === 'percent'
    ? total - roundToCent(total * BigInt(100 - (coupon.percent ?? 0)), 100n)
    : roundToCent(BigInt(coupon.amount ?? '0'));
  return off > total ? total : off;
}
