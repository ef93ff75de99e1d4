import { describe, expect, it } from 'vitest';
import { agoText, durationText, secondsSince } from './host-times';

describe('agoText', () => {
  it('says how long ago in seconds, minutes, hours or days, in each language', () => {
    expect(agoText(0, 'en')).toBe('now');
    expect(agoText(12.7, 'en')).toBe('12 seconds ago');
    expect(agoText(185, 'en')).toBe('3 minutes ago');
    expect(agoText(2 * 3600 + 5, 'en')).toBe('2 hours ago');
    expect(agoText(3 * 86400, 'en')).toBe('3 days ago');
    expect(agoText(12, 'ru')).toBe('12 секунд назад');
    expect(agoText(185, 'ru')).toBe('3 минуты назад');
    expect(agoText(12, 'cn')).toBe('12秒钟前');
  });
  it('never says "in 2 seconds" for a clock slightly ahead', () => {
    expect(agoText(-2, 'en')).toBe('now');
  });
});

describe('durationText', () => {
  it('shows the two largest units', () => {
    expect(durationText(40, 'en')).toBe('40 sec');
    expect(durationText(5 * 60 + 7, 'en')).toBe('5 min 7 sec');
    expect(durationText(4 * 3600 + 12 * 60 + 59, 'en')).toBe('4 hr 12 min');
    expect(durationText(2 * 86400 + 3 * 3600, 'en')).toBe('2 days 3 hr');
    expect(durationText(4 * 3600 + 12 * 60, 'ru')).toBe('4 ч 12 мин');
    expect(durationText(2 * 86400 + 3 * 3600, 'cn')).toBe('2天3小时');
  });
});

describe('secondsSince', () => {
  it('measures by the server clock and adds only the time elapsed since the answer', () => {
    const fetchedAt = 1_000_000;
    expect(secondsSince('2026-12-01T10:00:00.000Z', '2026-12-01T10:00:12.000Z', fetchedAt, fetchedAt)).toBe(12);
    expect(secondsSince('2026-12-01T10:00:00.000Z', '2026-12-01T10:00:12.000Z', fetchedAt, fetchedAt + 3000)).toBe(15);
    // A browser clock that jumps back adds nothing.
    expect(secondsSince('2026-12-01T10:00:00.000Z', '2026-12-01T10:00:12.000Z', fetchedAt, fetchedAt - 60_000)).toBe(12);
  });
});
