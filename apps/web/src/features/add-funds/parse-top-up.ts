import { TOP_UP_MIN } from '@cellport/shared/constants';
import { PAYMENT_LIMITS } from '@cellport/shared/schemas/payments';

const MICRO = 1_000_000n;

/**
 * A top-up amount typed in dollars → micro-USD, or null when it is not an amount of at least $1 (spec §5, custom
 * top-up minimum 1) and at most the server's limit, with no more than 2 decimals. String math, no floats.
 */
export function parseTopUp(text: string): bigint | null {
  const match = /^\s*\$?\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const micro = BigInt(match[1]!) * MICRO + BigInt((match[2] ?? '').padEnd(2, '0')) * 10_000n;
  if (micro < BigInt(TOP_UP_MIN) * MICRO || micro > BigInt(PAYMENT_LIMITS.topUpMaxDollars) * MICRO) return null;
  return micro;
}
