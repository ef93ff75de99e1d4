import { CATALOG_LIMITS, CATALOG_MESSAGES } from '@cellport/shared/schemas/catalog-constants';
import { whitelistRangeProblem } from '@cellport/shared/schemas/whitelist-ranges';

export type WhitelistProblem = keyof typeof CATALOG_MESSAGES | 'duplicate' | null;

/**
 * Why `entry` cannot join the whitelist, or null when it can. Uses the server's own rules (a public IPv4 or IPv6
 * address or range, at most a /16 or a /48), so the page refuses exactly what the server would refuse. An overlap
 * with another customer's port on the same modem only the server can tell (WHITELIST_OVERLAP).
 */
export function whitelistProblem(entry: string, current: readonly string[]): WhitelistProblem {
  const value = entry.trim();
  const problem = whitelistRangeProblem(value);
  if (problem) return problem;
  if (current.some((e) => e.toLowerCase() === value.toLowerCase())) return 'duplicate';
  if (current.length >= CATALOG_LIMITS.whitelistMax) return 'whitelistSize';
  return null;
}
