import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import { activeFingerprint, type PortFingerprint } from '@cellport/shared/schemas/fingerprint';
import type { HostFingerprintReport } from '@cellport/shared/schemas/host-protocol';

/** Said of a host whose agent never reported presets (an agent older than issue 30): the contract reads it as "cannot". */
export const HOST_NEVER_REPORTED = 'the host\'s agent has not reported fingerprint presets (it may be older than this feature)';

/** A host's capability as its last heartbeat reported it; null (never reported) is "cannot" (host protocol). */
export function hostCapability(report: HostFingerprintReport | null): { available: boolean; reason: string | null } {
  if (!report) return { available: false, reason: HOST_NEVER_REPORTED };
  return report.supported ? { available: true, reason: null } : { available: false, reason: report.reason ?? null };
}

/** A port's preset for the customer: its own choice, what applies, whether its host can, and whether it failed there. */
export function portFingerprint(portId: string, own: FingerprintPresetId | null, modemDefault: FingerprintPresetId | null,
  tariffDefault: FingerprintPresetId | null, host: HostFingerprintReport | null): PortFingerprint {
  const { preset: active, source } = activeFingerprint(own, modemDefault, tariffDefault);
  const { available, reason } = hostCapability(host);
  const failing = host?.failing?.find((f) => f.portId === portId)?.reason ?? null;
  return { preset: own, active, source, available, unavailableReason: reason, failing };
}
