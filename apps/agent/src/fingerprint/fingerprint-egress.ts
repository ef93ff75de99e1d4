import type { OnReadOpts, Socket } from 'node:net';
import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';

/**
 * What a modem's proxy asks of the fingerprint presets (issue 30): a connection that leaves with a port's preset,
 * the TTL its UDP datagrams leave with, and whether a preset can be applied now. ModemProxy calls it only for ports
 * whose preset is not native; without one (a host that cannot apply presets) those ports refuse new connections.
 */
export interface FingerprintEgress {
  /** Warms up what the preset needs (its interface's egress program, the addon), so the port's first connection does not wait for it. */
  prepare(preset: Exclude<FingerprintPresetId, 'native'>, egress: string): void;
  /**
   * A connected socket to address:port that opened with the preset's SYN. Rejects with a FingerprintUnavailable
   * when the preset cannot be applied now (the connection is refused, never made native), or with the network's
   * error (`code`: ECONNREFUSED, ETIMEDOUT, …). `onread`: how the socket reads (Node's option; a tunnel's target gives
   * proxy/target-reads.ts's, as its native twin does), absent for 'data' events.
   */
  connect(preset: Exclude<FingerprintPresetId, 'native'>, egress: string, address: string, port: number, timeoutMs: number,
    onread?: OnReadOpts): Promise<Socket>;
  /** The TTL (hop limit) of the port's UDP datagrams, compensated for the hops after the host. */
  datagramTtl(preset: Exclude<FingerprintPresetId, 'native'>): number;
  /** Why the preset cannot be applied now (its ports refuse new connections), or null. */
  problem(preset: Exclude<FingerprintPresetId, 'native'>): string | null;
}

export class FingerprintUnavailable extends Error {}
