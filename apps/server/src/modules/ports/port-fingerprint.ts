import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import { activeFingerprint, type PortFingerprint } from '@cellport/shared/schemas/fingerprint';
import { hostCapability, type HostFingerprintReport } from '@cellport/shared/schemas/host-protocol';

/** A port's preset for the customer: its own choice, what applies, whether its host can, and whether it failed there. */
export function portFingerprint(portId: string, own: FingerprintPresetId | null, modemDefault: FingerprintPresetId | null,
  tariffDefault: FingerprintPresetId | null, host: HostFingerprintReport | null): PortFingerprint {
  const { preset: active, source } = activeFingerprint(own, modemDefault, tariffDefault);
  const { available, reason } = hostCapability(host);
  const failing = host?.failing?.find((f) => f.portId === portId)?.reason ?? null;
  return { preset: own, active, source, available, unavailableReason: reason, failing };
}
