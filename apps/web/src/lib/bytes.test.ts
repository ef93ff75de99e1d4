import { describe, expect, it } from 'vitest';
import { formatBytes, parseBytes } from './bytes';

describe('formatBytes', () => {
  it('picks the decimal unit and keeps one decimal', () => {
    expect(formatBytes('0', 'en')).toBe('0 B');
    expect(formatBytes('999', 'en')).toBe('999 B');
    expect(formatBytes('1500', 'en')).toBe('1.5 kB');
    expect(formatBytes('1234567890', 'en')).toBe('1.2 GB');
  });

  it('handles counts beyond 2^53, truncating the last decimal', () => {
    expect(formatBytes('12345678901234567890', 'en')).toBe('12,345.6 PB');
  });

  it('uses the unit names of the language', () => {
    expect(formatBytes('1500000', 'ru')).toMatch(/^1,5\sМБ$/);
  });

  it('treats anything that is not a count as zero', () => {
    expect(parseBytes('abc')).toBe(0n);
    expect(parseBytes(undefined)).toBe(0n);
  });
});
