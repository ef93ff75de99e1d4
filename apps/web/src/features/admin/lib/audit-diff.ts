// The audit log's "before → after" as rows a person can read: nested objects flattened to dotted paths, unchanged
// fields left out, each value shown as short text.

export interface DiffRow { path: string; before: string | null; after: string | null; change: 'added' | 'removed' | 'changed' }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else if (value !== undefined) {
    out.set(prefix, value);
  }
  return out;
}

/** A value as text: strings as they are, null as "null", arrays and the rest as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'null';
  return JSON.stringify(value) ?? String(value);
}

/** The fields that differ between `before` and `after` (either may be null: a creation or a deletion). */
export function auditDiff(before: unknown, after: unknown): DiffRow[] {
  // A null side is "nothing there" (a creation or a deletion), not a value.
  const a = before == null ? new Map<string, unknown>() : flatten(before, '', new Map());
  const b = after == null ? new Map<string, unknown>() : flatten(after, '', new Map());
  const paths = [...new Set([...a.keys(), ...b.keys()])];
  const rows: DiffRow[] = [];
  for (const path of paths) {
    const had = a.has(path);
    const has = b.has(path);
    const left = had ? valueText(a.get(path)) : null;
    const right = has ? valueText(b.get(path)) : null;
    if (had && has && left === right) continue;
    rows.push({ path: path || '·', before: left, after: right, change: !had ? 'added' : !has ? 'removed' : 'changed' });
  }
  return rows;
}
