// What a port's IP whitelist may hold (issue 26, item 5). A whitelisted address connects without login and password,
// and on a shared modem the agent tells customers apart by it, so an entry must name the customer's own networks:
//
// - not broader than an IPv4 /16 or an IPv6 /48. A customer needs an office /24, a home /64 or a few single
//   addresses; a /16 (65,536 addresses) already covers a campus. Wider than that is someone else's traffic too, and
//   0.0.0.0/0 made an open proxy.
// - not a range no customer connects from over the internet: private, loopback, link-local, carrier-grade NAT,
//   multicast, reserved, IPv4-mapped and translated IPv6. These would only ever match connections from inside the
//   operator's own network (the agent's neighbours, a gateway, the server itself). The documentation ranges
//   (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32) are let through: they match nobody, and examples
//   and tests use them.
//
// Plain TypeScript (no node:net), so the web form refuses exactly what the server refuses.

export const WHITELIST_MIN_PREFIX = { 4: 16, 6: 48 } as const;

export interface IpRange { family: 4 | 6; bits: bigint; prefix: number }

const WIDTH = { 4: 32, 6: 128 } as const;

function parseIPv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null; // no leading zeros (octal to some)
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIPv6(text: string): bigint | null {
  let head = text;
  let tail4: bigint | null = null;
  // A trailing dotted quad (::ffff:1.2.3.4) stands for the last two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail4 = parseIPv4(dotted[2]!);
    if (tail4 === null) return null;
    head = `${dotted[1]!}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  let value = 0n;
  for (const group of [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right]) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return tail4 === null ? value : (value & ~0xffffffffn) | tail4;
}

/** An address ("1.2.3.4", "2001:db8::1") or a CIDR range ("1.2.3.0/24"), or null when it is neither. */
export function parseIpRange(entry: string): IpRange | null {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  if (extra !== undefined) return null;
  const family = address.includes(':') ? 6 : 4;
  const bits = family === 4 ? parseIPv4(address) : parseIPv6(address);
  if (bits === null) return null;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? WIDTH[family] : Number(prefixText);
  if (prefix > WIDTH[family]) return null;
  return { family, bits, prefix };
}

/** Whether two ranges share at least one address (one of them holds the other). */
export function rangesOverlap(a: IpRange, b: IpRange): boolean {
  if (a.family !== b.family) return false;
  const shift = BigInt(WIDTH[a.family] - Math.min(a.prefix, b.prefix));
  return a.bits >> shift === b.bits >> shift;
}

const NOT_PUBLIC = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4',
  '::/127', '::ffff:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64', '2002::/16', 'fc00::/7', 'fe80::/10', 'ff00::/8',
].map((range) => parseIpRange(range)!);

/** Why an entry cannot be on a whitelist (a message key of CATALOG_MESSAGES), or null when it can. */
export function whitelistRangeProblem(entry: string): 'whitelistEntry' | 'whitelistTooBroad' | 'whitelistNotPublic' | null {
  const range = parseIpRange(entry);
  if (!range) return 'whitelistEntry';
  if (range.prefix < WHITELIST_MIN_PREFIX[range.family]) return 'whitelistTooBroad';
  if (NOT_PUBLIC.some((special) => rangesOverlap(range, special))) return 'whitelistNotPublic';
  return null;
}
