import { ipJson, IpCommandError, runIp, type IpRunner } from './ip-command.js';

// One modem's policy routing (README, "Each modem's traffic leaves through that modem"): its own routing table with
// the default route through the modem and a blackhole under it, and a rule sending everything from the modem's
// source address to that table. A modem that is down therefore drops its traffic instead of leaking it out of the
// host's default route. Idempotent: reads `ip -j rule` and `ip -j route`, adds only what is missing and replaces what
// changed (a reconnect that gave the interface a new address, a new gateway).

/** Far below any real default route of the table: it only answers when the modem's own route is gone. */
export const BLACKHOLE_METRIC = 4_000_000_000;

export interface ModemRouting {
  /** The modem's routing table (a number: named tables of /etc/iproute2/rt_tables are not used). */
  table: number;
  /** The rule's priority; the agent owns it: another `from … lookup …` rule at this priority is replaced. */
  priority: number;
  /** The modem's IPv4 source address on this host. */
  source: string;
  /** The modem's interface. */
  dev: string;
  /** The next hop (a HiLink dongle's address); none for a point-to-point link (wwan0). */
  gateway?: string;
}

/** What `ip -j rule show` lists. */
export interface IpRule { priority?: number; src?: string; srclen?: number; table?: string; [selector: string]: unknown }
/** What `ip -j route show table N` lists. */
export interface IpRoute { type?: string; dst?: string; gateway?: string; dev?: string; metric?: number }

const RULE_KEYS = new Set(['priority', 'src', 'srclen', 'table', 'l3mdev', 'protocol']);

/**
 * The `ip` commands (argv after `ip`) that bring a modem's table and rule to `want`, in a leak-free order: the
 * blackhole first, then the default route, then the new rule before the stale ones go.
 */
export function planModemRouting(want: ModemRouting, rules: readonly IpRule[], routes: readonly IpRoute[]): string[][] {
  const table = String(want.table);
  const plan: string[][] = [];
  const isDefault = (r: IpRoute) => r.dst === 'default';
  if (!routes.some((r) => isDefault(r) && r.type === 'blackhole' && r.metric === BLACKHOLE_METRIC)) {
    plan.push(['route', 'add', 'blackhole', 'default', 'metric', String(BLACKHOLE_METRIC), 'table', table]);
  }
  const through = routes.some((r) => isDefault(r) && (r.type ?? 'unicast') === 'unicast' && !r.metric
    && r.dev === want.dev && r.gateway === want.gateway);
  if (!through) {
    plan.push(['route', 'replace', 'default', ...(want.gateway ? ['via', want.gateway] : []), 'dev', want.dev, 'table', table]);
  }
  // Rules with other selectors (fwmark, iif, …) are someone else's, even at this priority: a `rule del` could not
  // tell them from ours.
  const ours = rules.filter((r) => r.priority === want.priority && Object.keys(r).every((k) => RULE_KEYS.has(k)));
  const matches = (r: IpRule) => r.src === want.source && (r.srclen ?? 32) === 32 && r.table === table;
  if (!ours.some(matches)) plan.push(['rule', 'add', 'from', want.source, 'lookup', table, 'priority', String(want.priority)]);
  for (const stale of ours.filter((r) => !matches(r))) {
    const from = !stale.src || stale.src === 'all' ? 'all' : `${stale.src}${stale.srclen ? `/${stale.srclen}` : ''}`;
    plan.push(['rule', 'del', 'priority', String(want.priority), 'from', from, ...(stale.table ? ['table', stale.table] : [])]);
  }
  return plan;
}

/**
 * Reads the modem's rules and table and runs what is missing. Every command is tried (a default route through an
 * interface that is down fails, the rule and the blackhole must still go in); the first failure is thrown after.
 * Resolves with the commands it ran.
 */
export async function applyModemRouting(want: ModemRouting, run: IpRunner = runIp): Promise<string[][]> {
  const [rules, routes] = await Promise.all([
    ipJson<IpRule>(run, ['-4', 'rule', 'show']),
    ipJson<IpRoute>(run, ['-4', 'route', 'show', 'table', String(want.table)]),
  ]);
  const plan = planModemRouting(want, rules, routes);
  let failure: IpCommandError | null = null;
  for (const args of plan) {
    try {
      await run(args);
    } catch (err) {
      failure ??= err instanceof IpCommandError ? err : new IpCommandError(`ip ${args.join(' ')}`, '', err);
    }
  }
  if (failure) throw failure;
  return plan;
}
