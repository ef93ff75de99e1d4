// Date formatting for the authenticated pages: relative and absolute times in the reader's language, expiry state.
import { htmlLang } from './i18n';
import type { Language } from '@cellport/shared/constants';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Ports expiring within this many days are highlighted (Your Proxies, Billing & Renewals). */
export const EXPIRING_SOON_DAYS = 3;

/**
 * The one rounding rule for relative times (issue 14, item 6): the nearest whole minute, hour or day, half up, the
 * unit chosen after rounding (59.5 min is 1 hour, 23.5 h is 1 day). Elapsed time, so a week is 7 days across a
 * change of clocks or a month's end. Signed: negative is in the past.
 */
export function roundedDuration(ms: number): { value: number; unit: 'minute' | 'hour' | 'day' } {
  const sign = ms < 0 ? -1 : 1;
  const abs = Math.abs(ms);
  const minutes = Math.round(abs / 60_000);
  if (minutes < 60) return { value: sign * minutes, unit: 'minute' };
  const hours = Math.round(abs / (60 * 60_000));
  if (hours < 24) return { value: sign * hours, unit: 'hour' };
  return { value: sign * Math.round(abs / DAY_MS), unit: 'day' };
}

/** Days, hours or minutes until `iso` as "in 3 days" / "2 hours ago" in the reader's language (roundedDuration). */
export function relativeTime(iso: string, language: Language, now = Date.now()): string {
  const { value, unit } = roundedDuration(new Date(iso).getTime() - now);
  // Under half a minute either way is "now": 'always' would say "in 0 minutes", even of a moment ago.
  if (value === 0) return new Intl.RelativeTimeFormat(htmlLang(language), { numeric: 'auto' }).format(0, 'second');
  // 'always': "in 1 day", never "tomorrow", which would name a calendar day the rounding does not mean.
  return new Intl.RelativeTimeFormat(htmlLang(language), { numeric: 'always' }).format(value, unit);
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
