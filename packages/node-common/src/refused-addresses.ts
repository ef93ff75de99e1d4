import { BlockList } from 'node:net';

/**
 * The addresses a customer's traffic may never reach: one table for the server's webhooks (webhook-target.ts) and
 * the agent's proxy targets (target-policy.ts), so the two cannot drift apart again (issue 29: the agent once lacked
 * NAT64, 6to4 and the benchmarking range). Each side decides what its flags let through; the table says what each
 * range IS:
 *   special    — never a customer's destination: documentation, multicast, reserved, embedded-IPv4 translation…
 *   link-local — special too, named apart because the webhook log says "link-local" (169.254.169.254 is the cloud
 *                metadata address)
 *   private    — RFC 1918, carrier-grade NAT and unique local: the agent's AGENT_ALLOW_PRIVATE lets these through
 *   loopback   — this machine: the demo's flags let these through (WEBHOOKS_ALLOW_LOOPBACK, AGENT_ALLOW_LOOPBACK)
 * Node's BlockList matches IPv4 rules against IPv4-mapped IPv6 addresses (::ffff:10.0.0.1, ::ffff:a00:1) too.
 */
export type RangeKind = 'special' | 'link-local' | 'private' | 'loopback';

export interface RefusedRange {
  readonly network: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
  readonly kind: RangeKind;
  /** What lives there, for the reader and the tests. */
  readonly what: string;
}

const range = (network: string, prefix: number, kind: RangeKind, what: string): RefusedRange =>
  ({ network, prefix, family: network.includes(':') ? 'ipv6' : 'ipv4', kind, what });

export const REFUSED_RANGES: readonly RefusedRange[] = [
  range('0.0.0.0', 8, 'special', '"this network", includes the unspecified address'),
  range('192.0.0.0', 24, 'special', 'IETF protocol assignments'),
  range('192.0.2.0', 24, 'special', 'documentation (TEST-NET-1)'),
  range('198.18.0.0', 15, 'special', 'benchmarking'),
  range('198.51.100.0', 24, 'special', 'documentation (TEST-NET-2)'),
  range('203.0.113.0', 24, 'special', 'documentation (TEST-NET-3)'),
  range('224.0.0.0', 4, 'special', 'multicast'),
  range('240.0.0.0', 4, 'special', 'reserved, includes the 255.255.255.255 broadcast'),
  range('::', 96, 'special', 'unspecified, and the deprecated IPv4-compatible ::a.b.c.d (reaches an IPv4 host on some stacks)'),
  range('ff00::', 8, 'special', 'multicast'),
  range('2001:db8::', 32, 'special', 'documentation'),
  range('64:ff9b::', 96, 'special', 'NAT64: the last 32 bits are an IPv4 address, any of them (10/8, 127/8…) behind a NAT64'),
  range('64:ff9b:1::', 48, 'special', 'local-use NAT64'),
  range('2002::', 16, 'special', '6to4: embeds an IPv4 address the same way'),
  range('100::', 64, 'special', 'discard-only'),
  range('169.254.0.0', 16, 'link-local', 'link-local, includes the 169.254.169.254 cloud metadata address'),
  range('fe80::', 10, 'link-local', 'link-local'),
  range('10.0.0.0', 8, 'private', 'RFC 1918'),
  range('172.16.0.0', 12, 'private', 'RFC 1918'),
  range('192.168.0.0', 16, 'private', 'RFC 1918'),
  range('100.64.0.0', 10, 'private', 'carrier-grade NAT: the modems\' own side of the mobile network'),
  range('fc00::', 7, 'private', 'unique local'),
  range('127.0.0.0', 8, 'loopback', 'loopback'),
  range('::1', 128, 'loopback', 'loopback'),
];

/** A BlockList of the table's ranges of these kinds. */
export function blockListOf(...kinds: RangeKind[]): BlockList {
  const list = new BlockList();
  for (const r of REFUSED_RANGES) if (kinds.includes(r.kind)) list.addSubnet(r.network, r.prefix, r.family);
  return list;
}
