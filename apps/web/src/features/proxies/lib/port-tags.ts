import { CATALOG_LIMITS, portTagSchema, type Port } from '@cellport/shared/schemas/catalog';
import * as z from 'zod/mini';

export type TagProblem = 'portTag' | 'portTags' | 'duplicate' | null;

/**
 * Why `draft` cannot join the port's tags, or null when it can; with the tag as the server will keep it (trimmed,
 * lower case). Uses the server's own schema, so the page refuses exactly what the server would.
 */
export function tagProblem(draft: string, current: readonly string[]): { problem: TagProblem; tag: string } {
  const parsed = z.safeParse(portTagSchema, draft);
  if (!parsed.success) return { problem: 'portTag', tag: draft.trim() };
  if (current.includes(parsed.data)) return { problem: 'duplicate', tag: parsed.data };
  if (current.length >= CATALOG_LIMITS.portTagsMax) return { problem: 'portTags', tag: parsed.data };
  return { problem: null, tag: parsed.data };
}

/** Every tag on the customer's ports with how many ports carry it, by name. */
export function tagCounts(ports: readonly Pick<Port, 'tags'>[]): Array<{ tag: string; count: number }> {
  const counts = new Map<string, number>();
  for (const port of ports) for (const tag of port.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => a.tag.localeCompare(b.tag));
}

/**
 * The ports 'Rotate all' rotates: dedicated ports that have not expired. A shared port changes IP only on its modem's
 * schedule, for every customer on it (the server refuses it on demand).
 */
export function rotationTargets<P extends Pick<Port, 'status' | 'isShared'>>(ports: readonly P[]): P[] {
  return ports.filter((port) => port.status !== 'expired' && !port.isShared);
}
