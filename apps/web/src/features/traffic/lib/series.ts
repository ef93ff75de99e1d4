import type { TrafficRow } from '@cellport/shared/schemas/traffic';
import { parseBytes } from '../../../lib/bytes';

export interface BucketTotal { bucket: string; bytesIn: bigint; bytesOut: bigint }

const key = (iso: string) => new Date(iso).toISOString();

/** Sums the rows of all ports per bucket, over the full list of buckets (missing ones are zero). */
export function seriesByBucket(rows: readonly TrafficRow[], buckets: readonly string[]): BucketTotal[] {
  const sums = new Map<string, BucketTotal>(buckets.map((bucket) => [bucket, { bucket, bytesIn: 0n, bytesOut: 0n }]));
  for (const row of rows) {
    const k = key(row.bucket);
    let entry = sums.get(k);
    if (!entry) { entry = { bucket: k, bytesIn: 0n, bytesOut: 0n }; sums.set(k, entry); }
    entry.bytesIn += parseBytes(row.bytesIn);
    entry.bytesOut += parseBytes(row.bytesOut);
  }
  return [...sums.values()].sort((a, b) => a.bucket.localeCompare(b.bucket));
}

/** The largest single value, for the chart's scale (at least 1 so an empty chart does not divide by zero). */
export function maxValue(series: readonly BucketTotal[]): bigint {
  let max = 1n;
  for (const s of series) { if (s.bytesIn > max) max = s.bytesIn; if (s.bytesOut > max) max = s.bytesOut; }
  return max;
}

/** `value / max` as a fraction 0..1 with enough precision for drawing, without converting huge counts to floats first. */
export const fraction = (value: bigint, max: bigint) => Number((value * 10_000n) / max) / 10_000;
