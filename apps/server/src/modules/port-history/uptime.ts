export type Health = 'online' | 'degraded' | 'offline';
export interface HealthChange { at: Date; from: Health; to: Health }

/**
 * The share of [start, end] the modem was not offline, from its health changes in time order (degraded counts as up:
 * the port serves). The state at the window's start is the last change before it, else the `from` of the first change
 * after it, else the health now: a modem with no change on record was in today's state the whole time.
 */
export function uptimeRatio(changes: readonly HealthChange[], now: Health, start: Date, end: Date): number {
  const span = end.getTime() - start.getTime();
  if (span <= 0) return now === 'offline' ? 0 : 1;
  const before = changes.filter((c) => c.at <= start).at(-1);
  const inside = changes.filter((c) => c.at > start && c.at < end);
  let state: Health = before?.to ?? changes.find((c) => c.at > start)?.from ?? now;
  let from = start.getTime();
  let down = 0;
  for (const change of inside) {
    if (state === 'offline') down += change.at.getTime() - from;
    state = change.to;
    from = change.at.getTime();
  }
  if (state === 'offline') down += end.getTime() - from;
  return (span - down) / span;
}
