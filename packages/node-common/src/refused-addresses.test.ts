import { describe, expect, it } from 'vitest';
import { blockListOf, REFUSED_RANGES } from './refused-addresses.js';
import { rangeSamples } from './range-samples.js';

describe('the refused-address table', () => {
  it('holds the union of the webhook table and the agent policy, NAT64, 6to4 and benchmarking included', () => {
    const names = REFUSED_RANGES.map((r) => `${r.network}/${r.prefix}`);
    for (const name of ['64:ff9b::/96', '64:ff9b:1::/48', '2002::/16', '198.18.0.0/15', '169.254.0.0/16', '100.64.0.0/10', '::/96', '100::/64']) {
      expect(names).toContain(name);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it('puts both edges of each range, and the mapped form of each IPv4 range, in its own kind', () => {
    for (const range of REFUSED_RANGES) {
      const own = blockListOf(range.kind);
      const samples = rangeSamples(range);
      for (const address of samples) expect(own.check(address, address.includes(':') ? 'ipv6' : 'ipv4'), `${address} in ${range.network}/${range.prefix}`).toBe(true);
    }
    expect(rangeSamples(REFUSED_RANGES.find((r) => r.network === '198.18.0.0')!)).toEqual(['198.18.0.0', '198.19.255.255', '::ffff:198.19.255.255']);
    expect(rangeSamples(REFUSED_RANGES.find((r) => r.network === '64:ff9b::')!)[1]).toBe('64:ff9b:0:0:0:0:ffff:ffff');
  });

  it('leaves public addresses alone', () => {
    const all = blockListOf('special', 'link-local', 'private', 'loopback');
    for (const address of ['8.8.8.8', '1.1.1.1', '198.20.0.1', '2606:4700::1111', '2003::1']) {
      expect(all.check(address, address.includes(':') ? 'ipv6' : 'ipv4'), address).toBe(false);
    }
  });
});
