import type { OnReadOpts, Socket } from 'node:net';
import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';

type Preset = Exclude<FingerprintPresetId, 'native'>;

/**
 * What a modem's proxy asks of the fingerprint presets (issue 30): sockets that leave with a port's preset, the TTL
 * its UDP datagrams leave with, and whether a preset can be applied now. ModemProxy calls it only for ports whose
 * preset is not native; without one (a host that cannot apply presets) those ports refuse new connections.
 */
export interface FingerprintEgress {
  /** Warms up what the preset needs on this egress, so the port's first connection does not wait for it. */
  prepare(preset: Preset, egress: string): void;
  /** Whether the preset's setup on this egress is done, so socket() can be called at once. */
  ready(preset: Preset, egress: string): boolean;
  /** The setup, made if needed; rejects with a FingerprintUnavailable when the preset cannot be applied. */
  whenReady(preset: Preset, egress: string): Promise<void>;
  /**
   * An unconnected socket that opens with the preset's SYN when connected (`socket.connect({ host, port })`), made
   * after ready(). Throws a FingerprintUnavailable when the preset cannot be applied now (the connection is refused,
   * never made native), or the system's error (`code`: EMFILE, EADDRNOTAVAIL, …). `onread`: how the socket reads
   * (Node's option, given when the socket is made; a tunnel's target gives proxy/target-reads.ts's, as its native twin
   * does), absent for 'data' events.
   */
  socket(preset: Preset, egress: string, onread?: OnReadOpts): Socket;
  /** The TTL (hop limit) of the port's UDP datagrams, compensated for the hops after the host. */
  datagramTtl(preset: Preset): number;
  /** Why the preset cannot be applied now (its ports refuse new connections), or null. */
  problem(preset: Preset): string | null;
}

export class FingerprintUnavailable extends Error {}
