import { describe, expect, it } from 'vitest';
import { parsePortRange, presetPortSlice } from './egress-port-slices.js';

// Every source of a modem's egress gets its own source ports (decision 037): native the host's ephemeral range, each
// preset a slice outside it, so no source ever uses a tuple another one used last (a site's TIME_WAIT refuses it).

const PRESETS = ['windows', 'macos', 'ios', 'android'] as const;
const overlap = (a: { first: number; last: number }, b: { first: number; last: number }) => a.first <= b.last && b.first <= a.last;

describe('the preset namespaces\' source-port slices', () => {
  it('with the kernel\'s default range: four disjoint slices of 1024-32767, each starting even and ending odd', () => {
    const host = parsePortRange('32768\t60999\n');
    expect(host).toEqual({ first: 32768, last: 60999 });
    const slices = PRESETS.map((p) => presetPortSlice(p, host)!);
    expect(slices).toEqual([{ first: 1024, last: 8959 }, { first: 8960, last: 16895 }, { first: 16896, last: 24831 }, { first: 24832, last: 32767 }]);
    for (const [i, a] of slices.entries()) {
      expect(overlap(a, host)).toBe(false);
      for (const b of slices.slice(i + 1)) expect(overlap(a, b)).toBe(false);
    }
  });

  it('a host range low in the ports: the slices take the larger run above it', () => {
    const host = { first: 1024, last: 20000 };
    const slices = PRESETS.map((p) => presetPortSlice(p, host)!);
    expect(slices[0]!.first).toBe(20002);
    expect(slices[3]!.last).toBeLessThanOrEqual(65535);
    for (const s of slices) expect(overlap(s, host)).toBe(false);
  });

  it('a host range that leaves too little outside it: no slice (the namespace keeps its kernel\'s range)', () => {
    expect(presetPortSlice('windows', { first: 1024, last: 65000 })).toBeNull();
  });

  it('a malformed range is refused, not guessed', () => {
    expect(() => parsePortRange('60999 32768')).toThrow(/not a port range/);
    expect(() => parsePortRange('')).toThrow(/not a port range/);
  });
});
