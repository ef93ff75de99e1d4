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
    expect(relativeTime(at(3 * 24 * HOUR), 'cn', now)).toBe('3天后');
  });

  it('classifies expired, expiring soon (3 days) and fine', () => {
    expect(expiryState(at(-1), now)).toBe('expired');
    expect(expiryState(at(3 * 24 * HOUR), now)).toBe('soon');
    expect(expiryState(at(3 * 24 * HOUR + 1), now)).toBe('ok');
  });
});
