// Times on the hosts page: how long ago an agent last called and how long it has been running, in the reader's
// language. Both take whole seconds measured by the server's clock (the response's `now`), never the browser's.
import type { Language } from '@cellport/shared/constants';
import { roundedDuration } from '../../../lib/dates';
import { htmlLang } from '../../../lib/i18n';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * "12 seconds ago" ("now" under a second); from a minute on "3 minutes ago", "2 hours ago", "5 days ago" by the
 * one rounding rule of every relative time (lib/dates.ts roundedDuration).
 */
export function agoText(seconds: number, language: Language): string {
  const s = Math.max(0, Math.floor(seconds));
  const format = new Intl.RelativeTimeFormat(htmlLang(language), { numeric: 'auto' });
  if (s < MINUTE) return format.format(-s, 'second');
  const { value, unit } = roundedDuration(-s * 1000);
  return format.format(value, unit);
}

/** A running time in its two largest units: "2 days 3 hr", "4 hr 12 min", "5 min 7 sec", "40 sec". */
export function durationText(seconds: number, language: Language): string {
  const s = Math.max(0, Math.floor(seconds));
  const lang = htmlLang(language);
  const unit = (value: number, name: 'day' | 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(lang, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const parts = s >= DAY ? [unit(Math.floor(s / DAY), 'day'), unit(Math.floor((s % DAY) / HOUR), 'hour')]
    : s >= HOUR ? [unit(Math.floor(s / HOUR), 'hour'), unit(Math.floor((s % HOUR) / MINUTE), 'minute')]
      : s >= MINUTE ? [unit(Math.floor(s / MINUTE), 'minute'), unit(s % MINUTE, 'second')]
        : [unit(s, 'second')];
  return new Intl.ListFormat(lang, { type: 'unit', style: 'narrow' }).format(parts);
}

/**
 * Seconds between `iso` and the server's `now`, plus the time since the answer arrived (`fetchedAt`, by the
 * browser's clock, which only measures the elapsed time): so "12 s ago" keeps counting between refetches.
 */
export function secondsSince(iso: string, serverNow: string, fetchedAt: number, browserNow: number): number {
  return (Date.parse(serverNow) - Date.parse(iso) + Math.max(0, browserNow - fetchedAt)) / 1000;
}
