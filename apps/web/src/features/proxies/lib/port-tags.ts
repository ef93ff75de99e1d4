import type { Port } from '@cellport/shared/schemas/catalog';

// Tags across the customer's ports, for the page's toolbar. The check of a tag being added lives in tag-problem.ts
// with the tags dialog: it needs zod, which the page itself does not load (issue 31, item 4).

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
