/**
 * PayPal speaks decimal dollar strings ('12.50'); we keep integer cents. Both directions use string arithmetic, never
 * floats, so 0.1 + 0.2 style rounding can never change what is credited.
 */

/** 1250 → '12.50'. */
export function centsToAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new RangeError(`amount must be a positive integer number of cents, got ${cents}`);
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * '12.50' → 1250, '-12.50' → -1250, '12.5' → 1250, '12' → 1200. Anything else (thousands separators, more than two
 * decimals, exponents, spaces, empty) → null: an amount we cannot read exactly is never credited.
 */
export function amountToCents(amount: string | undefined): number | null {
  if (amount === undefined) return null;
  const match = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/.exec(amount);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return sign === '-' ? -cents : cents;
}
