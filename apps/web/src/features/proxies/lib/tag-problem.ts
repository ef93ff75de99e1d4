import { CATALOG_LIMITS, portTagSchema } from '@cellport/shared/schemas/catalog';
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
