import { describe, expect, it } from 'vitest';
import { heartbeatSchema, type PortAccess } from '@cellport/shared/schemas/host-protocol';
import type { FingerprintEgress } from './fingerprint-egress.js';
import { fingerprintReport, hopsAfterHost } from './fingerprint-report.js';

const port = (id: string, fingerprint?: PortAccess['fingerprint']): PortAccess => ({
  id, login: id, password: 'secret-1', whitelist: [], state: 'active', expiresAt: '2030-01-01T00:00:00.000Z', ...(fingerprint ? { fingerprint } : {}),
});
const egress = (problems: Partial<Record<string, string>>): FingerprintEgress => ({
  prepare: () => undefined, ready: () => true, whenReady: () => Promise.resolve(), socket: () => { throw new Error('unused'); },
  datagramTtl: () => 64, problem: (preset) => problems[preset] ?? null,
});

describe('the heartbeat\'s fingerprint report', () => {
  it('a host that cannot apply presets says why, and lists every port with a preset as failing for that reason', () => {
    const reason = 'The agent does not run as root, so it cannot set up the kernel programs the presets need.';
    const report = fingerprintReport({ supported: false, reason }, [{ ports: [port('a', 'windows'), port('b'), port('c', 'native')], egress: undefined }]);
    expect(report).toEqual({ supported: false, reason, failing: [{ portId: 'a', reason }] });
    expect(heartbeatSchema.shape.fingerprint.parse(report)).toEqual(report);
  });

  it('on a capable host only the ports whose preset cannot be applied now are failing, with their preset\'s reason', () => {
    const report = fingerprintReport({ supported: true }, [
      { ports: [port('a', 'macos'), port('b', 'windows')], egress: egress({ macos: 'The Apple SYN rewrite stopped.' }) },
      { ports: [port('c', 'ios')], egress: egress({}) },
    ]);
    expect(report).toEqual({ supported: true, failing: [{ portId: 'a', reason: 'The Apple SYN rewrite stopped.' }] });
    expect(fingerprintReport({ supported: true }, [{ ports: [port('c', 'ios')], egress: egress({}) }])).toEqual({ supported: true });
  });

  it('a HiLink dongle is one hop after the host (its NAT routes); a wwan modem none', () => {
    expect(hopsAfterHost('hilink')).toBe(1);
    expect(hopsAfterHost('modemmanager')).toBe(0);
  });
});
