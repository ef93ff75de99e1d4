import { CATALOG_LIMITS, CATALOG_MESSAGES, whitelistEntrySchema } from '@cellport/shared/schemas/catalog';
import * as z from 'zod/mini';

export type WhitelistProblem = keyof typeof CATALOG_MESSAGES | 'duplicate' | null;

/**
 * Why `entry` cannot join the whitelist, or null when it can. Uses the server's own schema (IPv4, IPv6, CIDR of
 * either), so the page refuses exactly what the server would refuse.
 */
export function whitelistProblem(entry: string, current: readonly string[]): WhitelistProblem {
  const value = entry.trim();
  if (!z.safeParse(whitelistEntrySchema, value).success) return 'whitelistEntry';
  if (current.some((e) => e.toLowerCase() === value.toLowerCase())) return 'duplicate';
  if (current.length >= CATALOG_LIMITS.whitelistMax) return 'whitelistSize';
  return null;
}
