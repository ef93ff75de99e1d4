import { describe, expect, it } from 'vitest';
import { createTargetPolicy, parseCidr } from './target-policy.js';

describe('target policy', () => {
  const strict = createTargetPolicy();

  it('refuses loopback, private, link-local, CGNAT, unspecified, multicast and broadcast by default', () => {
    for (const address of [
      '127.0.0.1', '127.9.9.9', '::1', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.8.1', '169.254.169.254',
      '100.64.0.1', '100.127.255.255', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::', 'fc00::1', 'fd12::1',
      'fe80::1', 'ff02::1',
    ]) expect(strict.isAllowed(address), address).toBe(false);
  });

  it('refuses the IPv4-mapped IPv6 forms of refused addresses', () => {
    for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:10.0.0.1', '::ffff:a9fe:a9fe']) {
      expect(strict.isAllowed(address), address).toBe(false);
    }
  });

  it('lets public addresses through, and refuses what is not an address', () => {
    for (const address of ['1.1.1.1', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:1.1.1.1']) {
      expect(strict.isAllowed(address), address).toBe(true);
    }
    for (const address of ['', 'localhost', '1.2.3', 'fe80::1%eth0']) expect(strict.isAllowed(address), address).toBe(false);
  });

  it('remembered decisions stay right, asked again and past the cache size', () => {
    const policy = createTargetPolicy({ deniedCidrs: ['8.8.0.0/16'] });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3000; i++) {
        const a = `${i % 2 === 0 ? 8 : 9}.8.${(i >> 8) & 255}.${i & 255}`;
        expect(policy.isAllowed(a), a).toBe(i % 2 === 1);
        expect(policy.isAllowed(`10.0.${(i >> 8) & 255}.${i & 255}`)).toBe(false);
      }
    }
  });

  it('allowLoopback opens 127/8 and ::1 only; allowPrivate opens private ranges but not link-local', () => {
    const demo = createTargetPolicy({ allowLoopback: true });
    expect(demo.isAllowed('127.0.0.1')).toBe(true);
    expect(demo.isAllowed('::1')).toBe(true);
    expect(demo.isAllowed('10.0.0.1')).toBe(false);
    const lab = createTargetPolicy({ allowPrivate: true });
    expect(lab.isAllowed('10.0.0.1')).toBe(true);
    expect(lab.isAllowed('fd00::1')).toBe(true);
    expect(lab.isAllowed('127.0.0.1')).toBe(false);
    expect(lab.isAllowed('169.254.169.254')).toBe(false);
  });

  it('deniedCidrs are refused whatever the flags say', () => {
    const policy = createTargetPolicy({ allowLoopback: true, allowPrivate: true, deniedCidrs: ['192.168.8.0/24', '127.0.5.5', '2001:db8::/32'] });
    expect(policy.isAllowed('192.168.8.1')).toBe(false);
    expect(policy.isAllowed('192.168.9.1')).toBe(true);
    expect(policy.isAllowed('127.0.5.5')).toBe(false);
    expect(policy.isAllowed('127.0.5.6')).toBe(true);
    expect(policy.isAllowed('2001:db8::5')).toBe(false);
    expect(() => createTargetPolicy({ deniedCidrs: ['10.0.0.0/33'] })).toThrow(/prefix/);
    expect(() => parseCidr('nonsense')).toThrow(/Not an IP/);
  });

  it('resolves names to the egress family and checks the resolved address', async () => {
    const demo = createTargetPolicy({ allowLoopback: true });
    expect(await demo.resolve('localhost', 4)).toEqual({ ok: true, address: '127.0.0.1' });
    expect(await demo.resolve('127.0.0.2', 4)).toEqual({ ok: true, address: '127.0.0.2' });
    expect(await demo.resolve('::ffff:127.0.0.3', 4)).toEqual({ ok: true, address: '127.0.0.3' });
    expect(await demo.resolve('::1', 4)).toEqual({ ok: false, reason: 'family' });
    // A name is no way around the rules: localhost resolves to a refused address.
    expect(await strict.resolve('localhost', 4)).toEqual({ ok: false, reason: 'refused' });
    expect(await strict.resolve('169.254.169.254', 4)).toEqual({ ok: false, reason: 'refused' });
    expect(await strict.resolve('no-such-host.invalid', 4)).toEqual({ ok: false, reason: 'unresolvable' });
  });
});
