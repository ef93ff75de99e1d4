// Date formatting for the authenticated pages: relative and absolute times in the reader's language, expiry state.
import { htmlLang } from './i18n';
import type { Language } from '@cellport/shared/constants';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Ports expiring within this many days are highlighted (Your Proxies, Billing & Renewals). */
export const EXPIRING_SOON_DAYS = 3;

/** Whole days, hours or minutes until `iso` as "in 3 days" / "2 hours ago" in the reader's language. */
export function relativeTime(iso: string, language: Language, now = Date.now()): string {
  const diff = new Date(iso).getTime() - now;
  const format = new Intl.RelativeTimeFormat(htmlLang(language), { numeric: 'auto' });
  const abs = Math.abs(diff);
  if (abs >= DAY_MS) return format.format(Math.trunc(diff / DAY_MS), 'day');
  if (abs >= 60 * 60 * 1000) return format.format(Math.trunc(diff / (60 * 60 * 1000)), 'hour');
  return format.format(Math.trunc(diff / 60_000), 'minute');
}

/** The date and time in the reader's language and time zone. */
export function dateTime(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(htmlLang(language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export type ExpiryState = 'expired' | 'soon' | 'ok';

export function expiryState(iso: string, now = Date.now()): ExpiryState {
  const left = new Date(iso).getTime() - now;
  if (left <= 0) return 'expired';
  return left <= EXPIRING_SOON_DAYS * DAY_MS ? 'soon' : 'ok';
}
