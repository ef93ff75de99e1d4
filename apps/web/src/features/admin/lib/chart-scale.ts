// Bar heights from money strings without floats on the money itself: the ratio is taken on bigints scaled to
// 1/1000 and only then turned into a number of pixels.

/** Each value's share of the largest one, 0..1 in steps of 1/1000 (all zero when every value is zero). */
export function barShares(values: readonly bigint[]): number[] {
  const max = values.reduce((m, v) => (v > m ? v : m), 0n);
  if (max <= 0n) return values.map(() => 0);
  return values.map((v) => (v <= 0n ? 0 : Number((v * 1000n) / max) / 1000));
}

/** Which of `count` bars get an axis label so that at most `maxLabels` show, always the first and the last. */
export function labelledIndexes(count: number, maxLabels: number): Set<number> {
  if (count <= maxLabels) return new Set(Array.from({ length: count }, (_, i) => i));
  const step = Math.ceil((count - 1) / (maxLabels - 1));
  const picked = new Set<number>();
  for (let i = 0; i < count; i += step) picked.add(i);
  picked.add(count - 1);
  return picked;
}
