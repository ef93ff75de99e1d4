import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uptimeRatio, type Health, type HealthChange } from './uptime.js';

const at = (h: number) => new Date(Date.UTC(2026, 10, 1) + h * 3_600_000);

describe('uptime from health changes', () => {
  it('counts offline time only, degraded as up', () => {
    const changes: HealthChange[] = [
      { at: at(2), from: 'online', to: 'offline' }, { at: at(5), from: 'offline', to: 'degraded' }, { at: at(6), from: 'degraded', to: 'online' },
    ];
    expect(uptimeRatio(changes, 'online', at(0), at(10))).toBeCloseTo(0.7);
  });

  it('takes the state before the window from the last change before it, else from the first change, else from now', () => {
    const before: HealthChange[] = [{ at: at(-5), from: 'online', to: 'offline' }, { at: at(4), from: 'offline', to: 'online' }];
    expect(uptimeRatio(before, 'online', at(0), at(10))).toBeCloseTo(0.6);
    expect(uptimeRatio(before.slice(1), 'online', at(0), at(10))).toBeCloseTo(0.6);
    expect(uptimeRatio([], 'offline', at(0), at(10))).toBe(0);
    expect(uptimeRatio([], 'degraded', at(0), at(10))).toBe(1);
  });

  it('is always within 0…1 and adds up: up time + down time = the window', () => {
    const health = fc.constantFrom<Health>('online', 'degraded', 'offline');
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: -20, max: 40 }), health), { maxLength: 30 }), health, (raw, now) => {
      const sorted = [...raw].sort((a, b) => a[0] - b[0]);
      let state: Health = 'online';
      const changes = sorted.map(([h, to]) => { const c = { at: at(h), from: state, to }; state = to; return c; });
      const ratio = uptimeRatio(changes, now, at(0), at(24));
      expect(ratio).toBeGreaterThanOrEqual(0);
      expect(ratio).toBeLessThanOrEqual(1);
      // Brute force: the state at the middle of each minute of the window.
      const stateAt = (t: number) => changes.filter((c) => c.at.getTime() <= t).at(-1)?.to ?? changes[0]?.from ?? now;
      let up = 0;
      for (let m = 0; m < 24 * 60; m++) if (stateAt(at(0).getTime() + (m + 0.5) * 60_000) !== 'offline') up++;
      expect(Math.abs(ratio - up / (24 * 60))).toBeLessThan(1 / (24 * 60) + 1e-9);
    }), { numRuns: 200 });
  });
});
