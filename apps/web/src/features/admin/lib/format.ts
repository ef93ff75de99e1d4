import type { Language } from '@cellport/shared/constants';
import { htmlLang } from '../../../lib/i18n';
import { formatCoin, formatUsd } from '../../../lib/money';

/** Micro-USD as "$12.34" (truncated, never rounded up); '—' for what is not an amount. */
export const usd = (micro: string | null | undefined) => formatUsd(micro) ?? '—';

/** A balance in its coin: USDT as dollars, BTC with 8 decimals. */
export const coinAmount = (value: string, coin: 'btc' | 'usdt') =>
  coin === 'usdt' ? usd(value) : `${formatCoin(value, 'btc') ?? '—'} BTC`;

/** A date (no time) in the reader's language; the overview's days are UTC dates "2026-11-25". */
export function shortDate(isoDate: string, language: Language): string {
  const date = new Date(isoDate.length === 10 ? `${isoDate}T00:00:00Z` : isoDate);
  return new Intl.DateTimeFormat(htmlLang(language), { month: 'short', day: 'numeric', timeZone: isoDate.length === 10 ? 'UTC' : undefined }).format(date);
}

/** A count in the reader's language ("1,234" / "1 234"). */
export const count = (n: number, language: Language) => new Intl.NumberFormat(htmlLang(language)).format(n);

/** ISO → the value of an <input type="datetime-local"> in local time, and back to ISO with an offset. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
export const fromLocalInput = (value: string): string | null => (value ? new Date(value).toISOString() : null);
