import { lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { blockListOf } from '@cellport/node-common/refused-addresses';

// Which addresses a customer may reach through a modem. Without this a customer could reach the modem's admin page,
// the agent itself, other hosts on the farm's LAN or a cloud metadata address. Domain names are resolved here and the
// RESOLVED address is both checked and connected to, so a name that resolves differently a second time (DNS
// rebinding) cannot slip past the check.

export interface TargetPolicyOptions {
  /** Lets 127/8 and ::1 through (the embedded demo reaches its local test server this way). */
  allowLoopback?: boolean;
  /** Lets RFC 1918 / ULA / CGNAT ranges through (a lab behind NAT); link-local stays refused. */
  allowPrivate?: boolean;
  /** Always refused, whatever the flags say: the modems' management networks (e.g. 192.168.8.0/24 of HiLink). */
  deniedCidrs?: readonly string[];
  /** Target ports refused on every address (AGENT_DENY_PORTS: the operator's egress deny-list, SMTP 25 by default). */
  deniedPorts?: readonly number[];
  /**
   * Refuses LOCAL_SERVICE_PORTS on every address: for modems that send from this machine's loopback (simulated ones),
   * and whenever loopback targets are allowed.
   */
  loopbackEgress?: boolean;
}

/** Why a target was not reached. */
export type TargetFailure = 'refused' | 'unresolvable' | 'family';

export type TargetResolution = { ok: true; address: string } | { ok: false; reason: TargetFailure };

export interface TargetPolicy {
  /** Whether an IP literal may be connected to (anything that is not a valid IP is refused). */
  isAllowed(address: string): boolean;
  /**
   * Resolves `host` (a name or an IP literal) to one address of `family` (the egress address's family: a socket bound
   * to an IPv4 source cannot reach an IPv6 target) and checks it, with the target `port`.
   */
  resolve(host: string, family: 4 | 6, port: number): Promise<TargetResolution>;
  /**
   * resolve's answer at once when it needs no lookup (an IP literal, or a port refused whatever the host); null for a
   * name. A tunnel to an address then costs no promise (modem-proxy.ts connectTarget).
   */
  resolveNow(host: string, family: 4 | 6, port: number): TargetResolution | null;
  /** Whether a target port may be connected to at all (deniedPorts, and the service ports while loopback is allowed). */
  isPortAllowed(port: number): boolean;
}

// The refused-address table is the server's webhook table too (@cellport/node-common/refused-addresses): special
// and link-local ranges always refused, private ones unless allowPrivate, loopback unless allowLoopback. Node's
// BlockList matches IPv4 rules against IPv4-mapped IPv6 addresses too (target-policy.test.ts checks this).

/**
 * Well-known service ports, refused on every target while loopback targets are allowed or the modems send from
 * loopback (the demo's simulated modems, from 127.0.x.y): a service on this machine takes a loopback peer for a local
 * one whatever address it was reached on (127.0.0.1, or the host's public address, which Linux routes over lo). A
 * customer's port reached PostgreSQL and Redis that way (issue 26, item 4).
 */
export const LOCAL_SERVICE_PORTS: readonly number[] = [
  22, // SSH
  25, 465, 587, // SMTP
  53, // DNS
  111, 2049, // rpcbind, NFS
  1883, 8883, // MQTT
  2375, 2376, // Docker API
  2379, 2380, // etcd
  3306, // MySQL (33060, its X protocol, lies in the ephemeral range tests bind)
  4222, 6222, 8222, // NATS
  5432, 6432, // PostgreSQL, PgBouncer
  5672, 15672, 25672, // RabbitMQ
  5984, // CouchDB
  6379, 26379, // Redis, Sentinel
  6443, 10250, // Kubernetes API, kubelet
  8500, 8600, // Consul
  9000, 9001, // MinIO, php-fpm
  9042, // Cassandra
  9092, // Kafka
  9200, 9300, // Elasticsearch
  11211, // memcached
  27017, // MongoDB
];

/** How many recent target decisions a policy remembers. */
const DECISION_CACHE_SIZE = 1024;

/** Parses "a.b.c.d/nn", "x::y/nn" or a bare address; throws on anything else so bad settings fail at start. */
export function parseCidr(cidr: string): [string, number, 'ipv4' | 'ipv6'] {
  const slash = cidr.indexOf('/');
  const address = (slash < 0 ? cidr : cidr.slice(0, slash)).trim();
  const family = isIP(address);
  if (family === 0) throw new Error(`Not an IP address or CIDR range: "${cidr}"`);
  const max = family === 4 ? 32 : 128;
  const prefix = slash < 0 ? max : Number(cidr.slice(slash + 1));
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`Bad prefix length in "${cidr}"`);
  return [address, prefix, family === 4 ? 'ipv4' : 'ipv6'];
}

export function createTargetPolicy(options: TargetPolicyOptions = {}): TargetPolicy {
  const special = blockListOf('special', 'link-local');
  const denied = new BlockList();
  for (const cidr of options.deniedCidrs ?? []) {
    const [net, prefix, type] = parseCidr(cidr);
    denied.addSubnet(net, prefix, type);
  }
  const loopback = blockListOf('loopback');
  const allowLoopback = options.allowLoopback === true;
  const privateNets = options.allowPrivate ? null : blockListOf('private');
  const deniedPorts = new Set([...(options.deniedPorts ?? []), ...(allowLoopback || options.loopbackEgress ? LOCAL_SERVICE_PORTS : [])]);
  const isPortAllowed = (port: number) => !deniedPorts.has(port);

  // The decision is a pure function of the address string and of these lists, which never change after this point,
  // so recent ones are remembered: a target is usually asked for again and again, and each BlockList.check builds a
  // SocketAddress (a few per decision, 2-3 % of the proxy's CPU). Bounded: cleared when full.
  const decisions = new Map<string, boolean>();

  function isAllowed(address: string): boolean {
    let allowed = decisions.get(address);
    if (allowed === undefined) {
      if (decisions.size >= DECISION_CACHE_SIZE) decisions.clear();
      allowed = decide(address);
      decisions.set(address, allowed);
    }
    return allowed;
  }

  function decide(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false; // includes scoped addresses like fe80::1%eth0
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (denied.check(address, type)) return false;
    // Before the special ranges: ::1 lies inside ::/96.
    if (loopback.check(address, type)) return allowLoopback;
    if (special.check(address, type)) return false;
    if (privateNets?.check(address, type)) return false;
    return true;
  }

  const REFUSED: TargetResolution = { ok: false, reason: 'refused' };
  const FAMILY: TargetResolution = { ok: false, reason: 'family' };

  function resolveNow(host: string, family: 4 | 6, port: number): TargetResolution | null {
    if (!isPortAllowed(port)) return REFUSED;
    const literal = isIP(host);
    if (literal === 0) return null;
    if (!isAllowed(host)) return REFUSED;
    // An IPv4-mapped IPv6 literal reaches an IPv4 host; connect to it as IPv4 from an IPv4 egress.
    if (literal === 6 && family === 4) {
      const mapped = unmapIPv4(host);
      if (mapped !== null) return { ok: true, address: mapped };
    }
    return literal !== family ? FAMILY : { ok: true, address: host };
  }

  function resolve(host: string, family: 4 | 6, port: number): Promise<TargetResolution> {
    const now = resolveNow(host, family, port);
    if (now !== null) return Promise.resolve(now);
    return new Promise((done) => {
      lookup(host, { family }, (err, address) => {
        if (err) done({ ok: false, reason: 'unresolvable' });
        else if (!isAllowed(address)) done({ ok: false, reason: 'refused' });
        else done({ ok: true, address });
      });
    });
  }

  return { isAllowed, isPortAllowed, resolve, resolveNow };
}

/** "::ffff:1.2.3.4" → "1.2.3.4" (the form Node reports for IPv4 peers of a dual-stack socket); otherwise null. */
export function unmapIPv4(address: string): string | null {
  if (address.length > 7 && address.charCodeAt(0) === 58 /* : */ && address.slice(0, 7).toLowerCase() === '::ffff:') {
    const rest = address.slice(7);
    if (isIP(rest) === 4) return rest;
  }
  return null;
}
