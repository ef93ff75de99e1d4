// The traffic page's range limit and granularities (issue 5): plain values, no zod. traffic.ts builds its schemas from
// them and re-exports them; the Traffic page imports them from here and loads neither the schemas nor zod (issue 31,
// item 4).

export const TRAFFIC_LIMITS = {
  /** The longest range one query may cover. */
  maxRangeDays: 93,
} as const;
export const TRAFFIC_GRANULARITIES = ['hour', 'day'] as const;
export type TrafficGranularity = (typeof TRAFFIC_GRANULARITIES)[number];
