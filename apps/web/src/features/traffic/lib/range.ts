import { TRAFFIC_LIMITS, type TrafficGranularity } from '@cellport/shared/schemas/traffic-constants';

export const RANGE_PRESETS = ['24h', '7d', '30d', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PRESET_MS: Record<Exclude<RangePreset, 'custom'>, number> = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };
/** The granularity a preset starts with; the customer may change it. */
export const DEFAULT_GRANULARITY: Record<RangePreset, TrafficGranularity> = { '24h': 'hour', '7d': 'day', '30d': 'day', custom: 'day' };

export interface TrafficRange { from: Date; to: Date }
export type RangeResult = { ok: true; range: TrafficRange } | { ok: false; error: 'missing' | 'order' | 'tooLong' };

/** The end of the current hour: the last bucket includes traffic reported a moment ago. */
const nextHour = (now: number) => new Date(Math.floor(now / HOUR) * HOUR + HOUR);

/**
 * The range to ask for. Presets end at the end of the current hour; a custom range runs from the start of its
 * first day to the end of its last day (local time, as the customer picked them), at most 93 days.
 */
export function resolveRange(preset: RangePreset, custom: { from: string; to: string }, now = Date.now()): RangeResult {
  if (preset !== 'custom') {
    const to = nextHour(now);
    return { ok: true, range: { from: new Date(to.getTime() - PRESET_MS[preset]), to } };
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(custom.from) || !/^\d{4}-\d{2}-\d{2}$/.test(custom.to)) return { ok: false, error: 'missing' };
  const from = new Date(`${custom.from}T00:00:00`);
  const to = new Date(`${custom.to}T00:00:00`);
  to.setDate(to.getDate() + 1);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return { ok: false, error: 'missing' };
  if (to <= from) return { ok: false, error: 'order' };
  if (to.getTime() - from.getTime() > TRAFFIC_LIMITS.maxRangeDays * DAY) return { ok: false, error: 'tooLong' };
  return { ok: true, range: { from, to } };
}

/** The query string of GET /api/v1/traffic and /api/v1/traffic.csv (the same for both). */
export function trafficSearch(range: TrafficRange, granularity: TrafficGranularity, portId: string | null): string {
  const params = new URLSearchParams({ from: range.from.toISOString(), to: range.to.toISOString(), granularity });
  if (portId) params.set('port_id', portId);
  return params.toString();
}

/**
 * Every bucket start (UTC, as the server buckets) from the one holding `from` up to `to`, so hours or days
 * without traffic still show as gaps in the chart.
 */
export function bucketStarts(range: TrafficRange, granularity: TrafficGranularity): string[] {
  const step = granularity === 'hour' ? HOUR : DAY;
  const first = Math.floor(range.from.getTime() / step) * step;
  const out: string[] = [];
  for (let t = first; t < range.to.getTime(); t += step) out.push(new Date(t).toISOString());
  return out;
}
