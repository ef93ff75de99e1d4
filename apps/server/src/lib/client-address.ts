import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** Whether the hop at `address` is one of our reverse proxies, so the X-Forwarded-For entry it added is believed. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** `::ffff:203.0.113.5` (an IPv4 peer of a dual-stack socket) → `203.0.113.5`, so IPv4 ranges match it. */
const unmapped = (address: string) => (/^::ffff:[\d.]+$/i.test(address) ? address.slice(7) : address);

/**
 * TRUSTED_PROXIES (comma-separated IPs and CIDRs) as its entries; throws with the first entry that is neither.
 * Issue 26: X-Forwarded-For was believed from any peer in production, so a client chose its own rate-limit key.
 */
export function parseTrustedProxies(value: string): string[] {
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [ip = '', prefix, extra] = entry.split('/');
    const family = isIP(ip);
    const bits = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (!family || !prefixOk || extra !== undefined) throw new Error(`"${entry}" is not an IP address or CIDR range`);
  }
  return entries;
}

/** The trust function of a list of proxy addresses and ranges; an empty list trusts no hop. */
export function proxyTrust(entries: readonly string[]): ProxyTrust {
  const list = new BlockList();
  for (const entry of entries) {
    const [ip = '', prefix] = entry.split('/');
    const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(prefix), type);
  }
  return (address) => {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Whose X-Forwarded-For is believed: Fastify's `trustProxy` (app.ts) and the realtime handshake, which socket.io
 * serves outside Fastify, take this one answer, so a per-address limit counts the same client either way.
 */
export const trustsForwardedFor = (config: { TRUSTED_PROXIES: string }): ProxyTrust =>
  proxyTrust(parseTrustedProxies(config.TRUSTED_PROXIES));

/**
 * The client's address of a raw request, as Fastify's `request.ip` reads it with `trustProxy: trust` (proxy-addr's
 * walk): from the peer back through X-Forwarded-For while each hop is a trusted proxy; the first untrusted one.
 */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust): string {
  const forwarded = req.headers['x-forwarded-for'];
  const hops = typeof forwarded === 'string' ? forwarded.split(',').map((hop) => hop.trim()).reverse() : [];
  let address = req.socket.remoteAddress ?? '';
  for (let hop = 0; hop < hops.length && trust(address, hop); hop++) address = hops[hop]!;
  return address;
}
