import { describe, expect, it } from 'vitest';
import { whitelistProblem } from './whitelist';

describe('whitelist entries', () => {
  it('accepts IPv4, IPv6 and CIDR ranges of both', () => {
    for (const entry of ['203.0.113.7', ' 10.0.0.0/8 ', '2001:db8::1', '2001:db8::/32']) {
      expect(whitelistProblem(entry, [])).toBeNull();
    }
  });

  it('refuses what is not an address or range', () => {
    for (const entry of ['', 'example.com', '256.1.1.1', '10.0.0.0/33', '1.2.3', '2001:db8::/129']) {
      expect(whitelistProblem(entry, [])).toBe('whitelistEntry');
    }
  });

  it('refuses duplicates and a 21st entry', () => {
    expect(whitelistProblem('10.0.0.1', ['10.0.0.1'])).toBe('duplicate');
    const full = Array.from({ length: 20 }, (_, i) => `10.0.0.${i}`);
    expect(whitelistProblem('10.0.1.1', full)).toBe('whitelistSize');
  });
});
