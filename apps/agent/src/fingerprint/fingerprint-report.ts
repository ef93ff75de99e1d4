import type { HostFingerprintReport, PortAccess } from '@cellport/shared/schemas/host-protocol';
import type { FingerprintEgress } from './fingerprint-egress.js';

/**
 * The heartbeat's `fingerprint` (issue 30): whether this host can apply presets, and each port with a preset that
 * cannot be applied now (it refuses new connections) with the reason. On a host that cannot apply presets at all,
 * every port with one is failing, for that host's reason.
 */
export function fingerprintReport(
  support: HostFingerprintReport,
  modems: Iterable<{ ports: readonly PortAccess[]; egress: FingerprintEgress | undefined }>,
): HostFingerprintReport {
  const failing: NonNullable<HostFingerprintReport['failing']> = [];
  for (const { ports, egress } of modems) {
    for (const port of ports) {
      if (!port.fingerprint || port.fingerprint === 'native') continue;
      const reason = !support.supported || !egress ? support.reason ?? 'This host cannot apply OS fingerprint presets.' : egress.problem(port.fingerprint);
      if (reason !== null) failing.push({ portId: port.id, reason: reason.slice(0, 300) });
    }
  }
  return { ...support, ...(failing.length > 0 ? { failing: failing.slice(0, 2000) } : {}) };
}

/** Hops after this host that lower the TTL a site sees: a HiLink dongle routes (its own NAT); a wwan link does not. */
export function hopsAfterHost(driver: string): number {
  return driver === 'hilink' ? 1 : 0;
}
