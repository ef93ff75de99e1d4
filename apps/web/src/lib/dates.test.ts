import { describe, expect, it } from 'vitest';
import { expiryState, relativeTime } from './dates';

const now = Date.parse('2026-11-22T12:00:00Z');
const at = (ms: number) => new Date(now + ms).toISOString();
const HOUR = 3_600_000;

describe('port expiry', () => {
  it('says how long is left in the reader language', () => {
    expect(relativeTime(at(3 * 24 * HOUR), 'en', now)).toBe('in 3 days');
    expect(relativeTime(at(-5 * HOUR), 'en', now)).toBe('5 hours ago');
    expect(relativeTime(at(3 * 24 * HOUR), 'ru', now)).toBe('через 3 дня');
    // A notification of a moment ago (or a time within half a minute) is "now", never "in 0 minutes".
    expect(relativeTime(at(-10_000), 'en', now)).toBe('now');
    expect(relativeTime(at(20_000), 'ru', now)).toBe('сейчас');
    expect(relativeTime(at(-1), 'cn', now)).toBe('现在');
    expect(relativeTime(at(3 * 24 * HOUR), 'cn', now)).toBe('3天后');
  });

  it('classifies expired, expiring soon (3 days) and fine', () => {
    expect(expiryState(at(-1), now)).toBe('expired');
    expect(expiryState(at(3 * 24 * HOUR), now)).toBe('soon');
    expect(expiryState(at(3 * 24 * HOUR + 1), now)).toBe('ok');
  });
});

// Issue 14, item 6: one rounding rule for every relative time — the nearest whole unit (half up), the unit chosen
// after rounding (59.5 minutes is '1 hour', 23.5 hours is '1 day'). A one-week port bought a moment ago has 7 days.
describe('relative times round to the nearest unit', () => {
  const DAY = 24 * HOUR;
  it('a week bought seconds ago is "in 7 days" (it said 6), also across the month end', () => {
    const bought = Date.parse('2026-11-24T20:16:00Z');
    const expires = new Date(bought + 7 * DAY).toISOString(); // Dec 1
    expect(relativeTime(expires, 'en', bought + 5_000)).toBe('in 7 days');
    expect(relativeTime(expires, 'en', bought + 12 * HOUR + 1)).toBe('in 6 days');
    expect(relativeTime(expires, 'en', bought + 12 * HOUR - 1)).toBe('in 7 days');
  });
  it('across a change of clocks a week is still 7 days (elapsed time, not wall-clock days)', () => {
    const bought = Date.parse('2026-10-24T20:16:00Z'); // Europe leaves summer time on Oct 25
    expect(relativeTime(new Date(bought + 7 * DAY).toISOString(), 'en', bought + 60_000)).toBe('in 7 days');
    const spring = Date.parse('2026-03-27T20:16:00Z'); // and enters it on Mar 29
    expect(relativeTime(new Date(spring + 7 * DAY).toISOString(), 'ru', spring)).toBe('через 7 дней');
  });
  it('hours and minutes left: the nearest unit, switching units after rounding', () => {
    expect(relativeTime(at(5 * HOUR + 29 * 60_000), 'en', now)).toBe('in 5 hours');
    expect(relativeTime(at(5 * HOUR + 30 * 60_000), 'en', now)).toBe('in 6 hours');
    expect(relativeTime(at(23 * HOUR + 30 * 60_000), 'en', now)).toBe('in 1 day');
    expect(relativeTime(at(59 * 60_000 + 30_000), 'en', now)).toBe('in 1 hour');
    expect(relativeTime(at(90_000), 'en', now)).toBe('in 2 minutes');
    expect(relativeTime(at(-36 * HOUR), 'en', now)).toBe('2 days ago');
    expect(relativeTime(at(-35 * HOUR), 'cn', now)).toBe('1天前');
  });
});
