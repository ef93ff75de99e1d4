import { BTC_MODAL_DECIMALS, CARD_AMOUNT_MULTIPLIER, MINOR_UNITS } from '@cellport/shared/constants';
import { formatMinor, parseMinor } from '../../../lib/money';

// Amount conversions at the provider boundaries of the issue-4 contract, in string and bigint math only.
// Inside the app money is micro-USD; the card endpoints take cents (spec §5, amount × 100); the crypto and PayPal
// endpoints take dollars as a decimal string ("50", "12.5").

const MICRO_PER_CENT = MINOR_UNITS.usdt / BigInt(CARD_AMOUNT_MULTIPLIER);

/** Whole dollars typed by a person ("50", "12.50") → micro-USD; null when it is not a positive amount with ≤ 2 decimals. */
export function dollarsToMicro(text: string): bigint | null {
  const match = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const cents = BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return cents * MICRO_PER_CENT;
}

/** micro-USD → the dollar string the crypto and PayPal endpoints take ("50", "12.5" → "12.50"). */
export function microToDollars(micro: bigint): string {
  const cents = micro / MICRO_PER_CENT;
  const whole = cents / 100n;
  const rest = cents % 100n;
  return rest === 0n ? whole.toString() : `${whole}.${rest.toString().padStart(2, '0')}`;
}

/** micro-USD → cents for the card endpoints (spec §5: amount × 100), rounding a fraction of a cent up. */
export function microToCents(micro: bigint): number {
  return Number((micro + MICRO_PER_CENT - 1n) / MICRO_PER_CENT);
}

/** Satoshi → BTC with 6 decimals for the crypto modal (spec §9), truncated. */
export function btcForModal(satoshi: string | null | undefined): string | null {
  const minor = parseMinor(satoshi);
  return minor === null ? null : formatMinor(minor, MINOR_UNITS.btc, BTC_MODAL_DECIMALS);
}

/**
 * Spec §9: total balance = USDT balance + BTC balance × rate, truncated to an integer (whole dollars).
 * usdt in micro-units, btc in satoshi, rate a decimal string of USD per BTC. Null when the rate is unknown.
 */
export function totalBalanceDollars(usdtMicro: string, btcSatoshi: string, rate: string | null): bigint | null {
  const usdt = parseMinor(usdtMicro);
  const btc = parseMinor(btcSatoshi);
  const match = rate ? /^(\d+)(?:\.(\d+))?$/.exec(rate.trim()) : null;
  if (usdt === null || btc === null || !match) return null;
  const fraction = match[2] ?? '';
  const rateScaled = BigInt(match[1]! + fraction); // rate × 10^fraction.length
  const scale = 10n ** BigInt(fraction.length);
  // usdt / 1e6 + btc / 1e8 × rateScaled / scale, computed over one common denominator, then truncated.
  const denominator = MINOR_UNITS.btc * scale;
  const numerator = usdt * 100n * scale + btc * rateScaled;
  return numerator / denominator;
}
