import { describe, expect, it } from 'vitest';
import { FINGERPRINT_PRESETS, type FingerprintEchoResult } from '../fingerprint-presets.js';
import { activeFingerprint, compareFingerprint, sameP0fLabel } from './fingerprint.js';

/** What the echo reports for a SYN shaped exactly like `id`'s preset, under p0f's `label`. */
const seenAs = (id: keyof typeof FINGERPRINT_PRESETS, label: string | null, over: Partial<FingerprintEchoResult> = {}): FingerprintEchoResult => {
  const p = FINGERPRINT_PRESETS[id];
  return {
    ip: '203.0.113.9', ttl: p.ttl - 3, initialTtl: p.ttl, window: p.window, windowScale: p.windowScale, mss: p.mss,
    options: p.options.map((o) => (o === 'eol' ? 'eol+1' : o)), p0f: { signature: p.p0f.signature, label }, ja4t: p.ja4t, ...over,
  };
};

describe('fingerprint presets in the customer API', () => {
  it('a port\'s own preset wins over its modem\'s default, which wins over its tariff\'s; none is native', () => {
    expect(activeFingerprint('windows', 'ios', 'android')).toEqual({ preset: 'windows', source: 'port' });
    expect(activeFingerprint(null, 'ios', 'android')).toEqual({ preset: 'ios', source: 'modem' });
    expect(activeFingerprint(null, null, 'android')).toEqual({ preset: 'android', source: 'tariff' });
    expect(activeFingerprint(null, null, null)).toEqual({ preset: 'native', source: 'none' });
  });

  it('a SYN shaped like the preset matches it, whatever the hops did to the TTL or the carrier to the MSS', () => {
    for (const id of ['windows', 'macos', 'ios', 'android'] as const) {
      const label = FINGERPRINT_PRESETS[id].p0f.label;
      expect(compareFingerprint(id, seenAs(id, label)).matches, id).toBe(true);
    }
    const clamped = compareFingerprint('windows', seenAs('windows', 'Windows NT kernel', { mss: 1400, ja4t: '64240_2-1-3-1-1-4_1400_8' }));
    expect(clamped.matches).toBe(true);
    expect(clamped.fields.find((f) => f.field === 'mss')).toMatchObject({ matches: false, decisive: false });
  });

  it('Linux seen where Windows was chosen does not match, and says which rows differ', () => {
    const result = compareFingerprint('windows', seenAs('native', 'Linux 3.11 and newer'));
    expect(result.matches).toBe(false);
    expect(result.fields.filter((f) => !f.matches && f.decisive).map((f) => f.field)).toEqual(['ttl', 'windowScale', 'options', 'p0f']);
  });

  it('reads p0f\'s label with its version, but never Android as native Linux', () => {
    expect(sameP0fLabel('Linux', 'Linux 3.11 and newer')).toBe(true);
    expect(sameP0fLabel('Linux', 'Linux (Android)')).toBe(false);
    expect(sameP0fLabel('Mac OS X', 'Mac OS X 10.x')).toBe(true);
    expect(sameP0fLabel('Windows NT kernel', null)).toBe(false);
    expect(sameP0fLabel('iOS', 'iOS iPhone or iPad')).toBe(true);
  });
});
