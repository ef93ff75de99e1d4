import { describe, expect, it } from 'vitest';
import { whitelistProblem } from './whitelist';

describe('whitelist entries', () => {
  it('accepts public IPv4, IPv6 and CIDR ranges of both, up to a /16 or a /48', () => {
    for (const entry of ['203.0.113.7', ' 81.2.0.0/16 ', '2001:db8::1', '2a00:1450:4001::/48']) {
      expect(whitelistProblem(entry, [])).toBeNull();
    }
  });

  it('refuses what is not an address or range', () => {
    for (const entry of ['', 'example.com', '256.1.1.1', '10.0.0.0/33', '1.2.3', '2001:db8::/129']) {
      expect(whitelistProblem(entry, [])).toBe('whitelistEntry');
    }
  });

  it('refuses too broad and non-public ranges with their own message', () => {
    for (const entry of ['0.0.0.0/0', '::/0', '81.0.0.0/8', '2a00::/32']) expect(whitelistProblem(entry, []), entry).toBe('whitelistTooBroad');
    for (const entry of ['10.0.0.1', '192.168.1.0/24', '127.0.0.1', '::1', 'fe80::1']) expect(whitelistProblem(entry, []), entry).toBe('whitelistNotPublic');
  });

  it('refuses duplicates and a 21st entry', () => {
    expect(whitelistProblem('81.2.3.4', ['81.2.3.4'])).toBe('duplicate');
    const full = Array.from({ length: 20 }, (_, i) => `81.2.3.${i}`);
    expect(whitelistProblem('81.2.4.1', full)).toBe('whitelistSize');
  });
});
