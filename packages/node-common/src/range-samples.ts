import type { RefusedRange } from './refused-addresses.js';

/**
 * The first and the last address of a range of the refused table, and a mapped IPv4 form, so the tests on each side
 * (webhooks.test.ts on the server, target-policy.test.ts in the agent) check every range at both of its edges.
 */
export function rangeSamples(range: RefusedRange): string[] {
  const bits = range.family === 'ipv4' ? 32 : 128;
  const first = toBigInt(range.network, range.family);
  const last = first | ((1n << BigInt(bits - range.prefix)) - 1n);
  const samples = [fromBigInt(first, range.family), fromBigInt(last, range.family)];
  // An IPv4 range covers its IPv4-mapped IPv6 forms too (::ffff:a.b.c.d).
  if (range.family === 'ipv4') samples.push(`::ffff:${samples[1]}`);
  return samples;
}

function toBigInt(address: string, family: 'ipv4' | 'ipv6'): bigint {
  if (family === 'ipv4') return address.split('.').reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n);
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return groups.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function fromBigInt(n: bigint, family: 'ipv4' | 'ipv6'): string {
  if (family === 'ipv4') return [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 255n)).join('.');
  return [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((n >> shift) & 0xffffn).toString(16)).join(':');
}
