/**
 * Exchange rates arrive as JSON numbers (blockchain.info/ticker: `"last": 64123.45`). They are turned into a
 * canonical decimal string once, here, and into integers by string arithmetic — never multiplied as floats.
 */

const DECIMAL = /^(\d{1,15})(?:\.(\d{1,20}))?$/;
export const MICRO_PER_UNIT = 1_000_000n;
export const SAT_PER_BTC = 100_000_000n;

/**
 * A positive decimal string ("64123.45") from a ticker value, or null when it is not a plain positive decimal.
 * A JSON number prints as the shortest string that reads back as the same double, which for a price with a few
 * decimals is exactly the digits the ticker sent; exponent forms (1e21, 5e-7) are refused, not guessed at.
 */
export function toDecimalRate(value: unknown): string | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (/^0*$/.test(whole + fraction)) return null; // a zero price is an upstream fault, not a rate
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Millionths of the unit in a decimal string, truncated beyond 6 places: "64123.4567891" → 64123456789n. */
export function decimalToMicro(decimal: string): bigint {
  const match = DECIMAL.exec(decimal);
  if (!match) throw new RangeError(`not a plain decimal: ${decimal}`);
  const fraction = (match[2] ?? '').slice(0, 6).padEnd(6, '0');
  return BigInt(match[1]!) * MICRO_PER_UNIT + BigInt(fraction);
}

/** USD value in micro-USD of an amount in satoshi at `microUsdPerBtc`, truncated toward zero. */
export function satToMicroUsd(amountSat: bigint, microUsdPerBtc: bigint): bigint {
  return (amountSat * microUsdPerBtc) / SAT_PER_BTC;
}
