import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { resolveEgress, type ModemEntry } from '../../modems/modems-file.js';
import type { ModemRouting } from './policy-routing.js';

/** The first modem's table when AGENT_POLICY_ROUTING_TABLE is not set; modem i of the file gets table + i. */
export const FIRST_TABLE = 101;
/** A modem's rule priority is its table + this (table 101: priority 1001), before the main table's 32766. */
export const PRIORITY_OFFSET = 900;

/**
 * What a modem of the modems file needs routed, now: its source address (an interface's current IPv4 address, which
 * a reconnect may change), its interface (the one holding a source address given as such) and its gateway (the
 * entry's `gateway`; for HiLink the management address's host; none for a point-to-point wwan). Simulated modems
 * need none (null). Throws when the interface or address is not there (yet).
 */
export function modemRouting(entry: ModemEntry, index: number, firstTable = FIRST_TABLE,
  interfaces: typeof networkInterfaces = networkInterfaces): ModemRouting | null {
  if (entry.driver === 'simulated' || !entry.egress) return null;
  const source = resolveEgress(entry.egress, interfaces);
  if (isIP(source) !== 4) throw new Error(`policy routing covers IPv4 egress only; ${source} is not an IPv4 address`);
  const dev = isIP(entry.egress) ? Object.entries(interfaces()).find(([, list]) => list?.some((a) => a.address === source))?.[0] : entry.egress;
  if (!dev) throw new Error(`the egress address ${source} is on no interface of this host (yet)`);
  let gateway = entry.gateway;
  if (!gateway && entry.driver === 'hilink') {
    const host = new URL(entry.management).hostname;
    if (isIP(host) !== 4) throw new Error(`the management address ${entry.management} is not an IPv4 address: give the dongle's address as gateway`);
    gateway = host;
  }
  const table = firstTable + index;
  return { table, priority: table + PRIORITY_OFFSET, source, dev, ...(gateway ? { gateway } : {}) };
}
