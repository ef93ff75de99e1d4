import { MINOR_UNITS } from '@cellport/shared/constants';
import { parseMinor } from '../../../lib/money';

/** A decimal USD string ("97123.45") → integer micro-USD, or null when it is not a plain non-negative decimal. */
export function usdToMicro(decimal: string | null | undefined): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal?.trim() ?? '');
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(6, '0').slice(0, 6);
  return BigInt(match[1]!) * MINOR_UNITS.usdt + BigInt(fraction);
}

/**
 * Spec §9: total balance = USDT balance + BTC balance × rate, truncated to an integer (whole dollars). All in
 * bigint: micro-USDT + satoshi × micro-USD-per-BTC / 10^8. Null when a part is unknown (no rate yet).
 */
export function totalBalanceDollars(usdtMicro: string | null | undefined, btcSatoshi: string | null | undefined, btcRate: string | null | undefined): bigint | null {
  const usdt = parseMinor(usdtMicro);
  const btc = parseMinor(btcSatoshi);
  const rate = usdToMicro(btcRate);
  if (usdt === null || btc === null || rate === null) return null;
  const totalMicro = usdt + (btc * rate) / MINOR_UNITS.btc;
  return totalMicro / MINOR_UNITS.usdt;
}
