import { describe, expect, it } from 'vitest';
import { networkInterfaces } from 'node:os';
import { REFUSED_RANGES } from '@cellport/node-common/refused-addresses';
import { rangeSamples } from '@cellport/node-common/range-samples';
import { createTargetPolicy, LOCAL_SERVICE_PORTS, parseCidr } from './target-policy.js';

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
    expect(await demo.resolve('localhost', 4, 80)).toEqual({ ok: true, address: '127.0.0.1' });
    expect(await demo.resolve('127.0.0.2', 4, 80)).toEqual({ ok: true, address: '127.0.0.2' });
    expect(await demo.resolve('::ffff:127.0.0.3', 4, 80)).toEqual({ ok: true, address: '127.0.0.3' });
    expect(await demo.resolve('::1', 4, 80)).toEqual({ ok: false, reason: 'family' });
    // A name is no way around the rules: localhost resolves to a refused address.
    expect(await strict.resolve('localhost', 4, 80)).toEqual({ ok: false, reason: 'refused' });
    expect(await strict.resolve('169.254.169.254', 4, 80)).toEqual({ ok: false, reason: 'refused' });
    expect(await strict.resolve('no-such-host.invalid', 4, 80)).toEqual({ ok: false, reason: 'unresolvable' });
  });

  it('answers addresses and refused ports at once (resolveNow), the same as resolve; a name waits for resolve', async () => {
    const demo = createTargetPolicy({ allowLoopback: true });
    const cases: Array<[string, 4 | 6, number]> = [
      ['127.0.0.2', 4, 80], ['::ffff:127.0.0.3', 4, 80], ['::1', 4, 80], ['::1', 6, 80], ['127.0.0.2', 4, LOCAL_SERVICE_PORTS[0]!],
      ['localhost', 4, LOCAL_SERVICE_PORTS[0]!],
    ];
    for (const [host, family, port] of cases) {
      const now = demo.resolveNow(host, family, port);
      expect(now, host).not.toBeNull();
      expect(now, host).toEqual(await demo.resolve(host, family, port));
    }
    expect(strict.resolveNow('169.254.169.254', 4, 80)).toEqual({ ok: false, reason: 'refused' });
    expect(demo.resolveNow('localhost', 4, 80)).toBeNull();
  });

  // Issue 26, item 12: the union with the server's webhook table (webhook-target.ts). Each range: its first address,
  // one inside, its last, and the neighbours outside that stay reachable.
  it.each([
    ['192.0.0.0/24', ['192.0.0.0', '192.0.0.9', '192.0.0.255'], ['192.0.1.0']],
    ['192.0.2.0/24 (documentation)', ['192.0.2.0', '192.0.2.1', '192.0.2.255'], ['192.0.3.1']],
    ['198.18.0.0/15 (benchmarking)', ['198.18.0.0', '198.19.7.7', '198.19.255.255'], ['198.17.255.255', '198.20.0.0']],
    ['198.51.100.0/24 (documentation)', ['198.51.100.0', '198.51.100.7', '198.51.100.255'], ['198.51.101.0']],
    ['203.0.113.0/24 (documentation)', ['203.0.113.0', '203.0.113.7', '203.0.113.255'], ['203.0.114.0']],
    ['::/96 (IPv4-compatible)', ['::2', '::7f00:1', '::127.0.0.1', '::a00:1', '::ffff'], ['1::1']],
    ['2001:db8::/32 (documentation)', ['2001:db8::', '2001:db8:ffff::1'], ['2001:db9::1']],
    ['64:ff9b::/96 (NAT64)', ['64:ff9b::', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe'], ['64:ff9b:0:0:0:1::1']],
    ['64:ff9b:1::/48 (local NAT64)', ['64:ff9b:1::1', '64:ff9b:1:ffff::a00:1'], ['64:ff9b:2::1']],
    ['2002::/16 (6to4)', ['2002::', '2002:7f00:1::1', '2002:a9fe:a9fe::', '2002:ffff:ffff::1'], ['2003::1']],
    ['100::/64 (discard)', ['100::', '100::ffff:ffff:ffff:ffff'], ['100:0:0:1::1']],
  ])('refuses %s, on every policy', (_range, inside, outside) => {
    const lab = createTargetPolicy({ allowLoopback: true, allowPrivate: true });
    for (const address of inside) {
      expect(strict.isAllowed(address), address).toBe(false);
      expect(lab.isAllowed(address), `${address} with loopback and private allowed`).toBe(false);
    }
    for (const address of outside) expect(strict.isAllowed(address), address).toBe(true);
  });

  // Every range of the table shared with the server's webhooks (@cellport/node-common), at both edges and mapped.
  it.each(REFUSED_RANGES.map((range) => [`${range.network}/${range.prefix} (${range.what})`, range] as const))('refuses %s unless its kind is allowed', (_name, range) => {
    const lab = createTargetPolicy({ allowLoopback: true, allowPrivate: true });
    for (const address of rangeSamples(range)) {
      expect(strict.isAllowed(address), address).toBe(false);
      expect(lab.isAllowed(address), `${address} with loopback and private allowed`).toBe(range.kind === 'private' || range.kind === 'loopback');
    }
  });

  it('::1 stays reachable for the demo though ::/96 is refused', () => {
    expect(createTargetPolicy({ allowLoopback: true }).isAllowed('::1')).toBe(true);
    expect(strict.isAllowed('::1')).toBe(false);
  });

  it('deniedPorts (AGENT_DENY_PORTS) are refused on every address, named or literal', async () => {
    const policy = createTargetPolicy({ deniedPorts: [25, 2525] });
    expect(policy.isPortAllowed(25)).toBe(false);
    expect(policy.isPortAllowed(2525)).toBe(false);
    expect(policy.isPortAllowed(587)).toBe(true);
    expect(await policy.resolve('1.1.1.1', 4, 25)).toEqual({ ok: false, reason: 'refused' });
    expect(await policy.resolve('1.1.1.1', 4, 443)).toEqual({ ok: true, address: '1.1.1.1' });
    // Refused before any lookup: a name that does not resolve is still "refused" on a denied port.
    expect(await policy.resolve('no-such-host.invalid', 4, 25)).toEqual({ ok: false, reason: 'refused' });
  });

  // Issue 26, item 4: the demo's egress comes from 127.0.x.y, which this machine's services take for local.
  it('with loopback allowed, the service ports are refused on loopback and on this host\'s own addresses; other loopback ports stay open', async () => {
    const demo = createTargetPolicy({ allowLoopback: true });
    for (const port of [5432, 6379, 3306, 5672, 1883, 4222, 25, 22, 27017, 11211]) {
      expect(LOCAL_SERVICE_PORTS, String(port)).toContain(port);
      expect(await demo.resolve('127.0.0.1', 4, port), `127.0.0.1:${port}`).toEqual({ ok: false, reason: 'refused' });
      expect(await demo.resolve('localhost', 4, port), `localhost:${port}`).toEqual({ ok: false, reason: 'refused' });
    }
    const own = Object.values(networkInterfaces()).flat().find((a) => a?.family === 'IPv4' && !a.internal)?.address;
    if (own) expect(await createTargetPolicy({ allowLoopback: true, allowPrivate: true }).resolve(own, 4, 5432)).toEqual({ ok: false, reason: 'refused' });
    // A site on loopback, as the demo's Try it reaches the dashboard (the proxy through path: demo-egress.test.ts).
    expect(await demo.resolve('127.0.0.1', 4, 3000)).toEqual({ ok: true, address: '127.0.0.1' });
    // Without loopback (a real host), the service ports are the farm's business: only AGENT_DENY_PORTS applies.
    expect(strict.isPortAllowed(5432)).toBe(true);
  });
});
