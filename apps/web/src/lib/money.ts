import { MINOR_UNITS, type Coin } from '@cellport/shared/constants';

// Money arrives as strings of integer minor units (USDT in micro-units, BTC in satoshi). Formatting is string and
// bigint arithmetic only: a float would turn 0.29 into 0.28999… and show the wrong cent.

const DIGITS = /^-?\d+$/;

/** Parses an integer minor-unit amount; null for anything that is not one. */
export function parseMinor(value: string | bigint | null | undefined): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value !== 'string' || !DIGITS.test(value.trim())) return null;
  return BigInt(value.trim());
}

/**
 * Minor units → decimal string with `decimals` places, truncated toward zero (never rounded up: a balance of
 * $12.349 shows as 12.34, since showing 12.35 would promise a cent the customer does not have).
 */
export function formatMinor(minor: bigint, unitsPerWhole: bigint, decimals: number): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const whole = abs / unitsPerWhole;
  const scale = unitsPerWhole.toString().length - 1; // 1_000_000n → 6 digits of fraction
  const fraction = (abs % unitsPerWhole).toString().padStart(scale, '0').slice(0, decimals).padEnd(decimals, '0');
  const wholeText = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const text = decimals > 0 ? `${wholeText}.${fraction}` : wholeText;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

/** A coin balance for display: USDT with 2 decimals, BTC with 8 (spec §9). */
export function formatCoin(value: string | bigint | null | undefined, coin: Coin, decimals = coin === 'btc' ? 8 : 2): string | null {
  const minor = parseMinor(value);
  return minor === null ? null : formatMinor(minor, MINOR_UNITS[coin], decimals);
}

/** The header's dollar balance: the USDT balance as $1,234.56, or null when unknown. */
export function formatUsd(microUnits: string | bigint | null | undefined): string | null {
  const text = formatCoin(microUnits, 'usdt', 2);
  if (text === null) return null;
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/**
 * An amount a person typed in whole units ("12", "12.5", "-0.25", "$1 234,50") → integer minor units of `coin`, by
 * string math: USDT up to 6 decimals, BTC up to 8. A comma works as the decimal mark (ru); spaces group digits.
 * Null for anything else, for more decimals than the coin has, for a negative amount unless `signed`, and for zero.
 */
export function parseMoneyInput(text: string, coin: Coin = 'usdt', { signed = false } = {}): bigint | null {
  const scale = MINOR_UNITS[coin].toString().length - 1;
  const compact = text.replace(/[\s\u00a0]/g, '');
  const match = /^([+-]?)\$?(\d{1,15})(?:[.,](\d+))?$/.exec(compact);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > scale) return null;
  if (sign === '-' && !signed) return null;
  const minor = BigInt(whole!) * MINOR_UNITS[coin] + BigInt(fraction.padEnd(scale, '0') || '0');
  if (minor === 0n) return null;
  return sign === '-' ? -minor : minor;
}
