import { describe, expect, it } from 'vitest';
import { bucketStarts, resolveRange, trafficSearch } from './range';
import { fraction, maxValue, seriesByBucket } from './series';

const now = Date.parse('2026-03-10T12:34:56Z');

describe('traffic range', () => {
  it('presets end at the end of the current hour', () => {
    const r = resolveRange('24h', { from: '', to: '' }, now);
    expect(r.ok && r.range.to.toISOString()).toBe('2026-03-10T13:00:00.000Z');
    expect(r.ok && r.range.from.toISOString()).toBe('2026-03-09T13:00:00.000Z');
    const week = resolveRange('7d', { from: '', to: '' }, now);
    expect(week.ok && week.range.from.toISOString()).toBe('2026-03-03T13:00:00.000Z');
  });

  it('a custom range covers whole days and is checked', () => {
    const r = resolveRange('custom', { from: '2026-03-01', to: '2026-03-02' }, now);
    expect(r.ok && (r.range.to.getTime() - r.range.from.getTime()) / 3_600_000).toBe(48);
    expect(resolveRange('custom', { from: '2026-03-02', to: '2026-03-01' }, now)).toEqual({ ok: false, error: 'order' });
    expect(resolveRange('custom', { from: '', to: '2026-03-01' }, now)).toEqual({ ok: false, error: 'missing' });
    expect(resolveRange('custom', { from: '2025-01-01', to: '2026-03-01' }, now)).toEqual({ ok: false, error: 'tooLong' });
  });

  it('builds the same query for the page and the CSV, with the port only when chosen', () => {
    const range = { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') };
    expect(trafficSearch(range, 'hour', null)).toBe('from=2026-03-01T00%3A00%3A00.000Z&to=2026-03-02T00%3A00%3A00.000Z&granularity=hour');
    expect(trafficSearch(range, 'day', 'abc')).toContain('&port_id=abc');
  });

  it('lists every bucket start in UTC', () => {
    const range = { from: new Date('2026-03-01T22:30:00Z'), to: new Date('2026-03-02T01:00:00Z') };
    expect(bucketStarts(range, 'hour')).toEqual(['2026-03-01T22:00:00.000Z', '2026-03-01T23:00:00.000Z', '2026-03-02T00:00:00.000Z']);
    expect(bucketStarts(range, 'day')).toEqual(['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z']);
  });
});

describe('traffic series', () => {
  it('sums ports per bucket, fills gaps with zero and keeps big counts exact', () => {
    const buckets = ['2026-03-01T00:00:00.000Z', '2026-03-01T01:00:00.000Z'];
    const rows = [
      { port_id: 'a', modem_name: 'A', bucket: '2026-03-01T00:00:00Z', bytesIn: '9007199254740993', bytesOut: '5' },
      { port_id: 'b', modem_name: 'B', bucket: '2026-03-01T00:00:00.000Z', bytesIn: '1', bytesOut: '10' },
    ];
    const series = seriesByBucket(rows, buckets);
    expect(series).toEqual([
      { bucket: buckets[0], bytesIn: 9007199254740994n, bytesOut: 15n },
      { bucket: buckets[1], bytesIn: 0n, bytesOut: 0n },
    ]);
    expect(maxValue(series)).toBe(9007199254740994n);
    expect(fraction(15n, 30n)).toBe(0.5);
    expect(maxValue([])).toBe(1n);
  });
});
