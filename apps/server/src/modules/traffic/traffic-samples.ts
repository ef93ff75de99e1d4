import { HOST_PROTOCOL, type TrafficReport } from '@cellport/shared/schemas/host-protocol';
import type { PortSample } from './traffic.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_BYTES = BigInt(HOST_PROTOCOL.trafficSampleMaxBytes);

export interface ScreenedSamples {
  /** What may be counted, as the repository takes it (it still checks each port is this host's and was held then). */
  samples: PortSample[];
  /** Why the others were refused, by their index in the report. */
  refused: Array<{ index: number; reason: string }>;
}

/**
 * Sorts an agent's report into samples worth storing and samples refused on their own: a misaligned interval, one
 * ahead of now (one interval of clock difference allowed), one older than `maxAgeHours` (a host key cannot write
 * into past months; an agent cut off longer than that loses the traffic), a count above the per-sample ceiling, or
 * a port id that is no id. A refused sample never spoils the rest of its report, and none is worth a resend.
 */
export function screenSamples(samples: TrafficReport['samples'], maxAgeHours: number, now = Date.now()): ScreenedSamples {
  const alignMs = HOST_PROTOCOL.trafficIntervalMinutes * 60_000;
  const latest = now + alignMs;
  const earliest = now - maxAgeHours * 3_600_000;
  const out: ScreenedSamples = { samples: [], refused: [] };
  for (const [index, s] of samples.entries()) {
    const start = Date.parse(s.intervalStart);
    let reason: string | undefined;
    if (start % alignMs !== 0 || start > latest) reason = `intervalStart must be a past time aligned to ${HOST_PROTOCOL.trafficIntervalMinutes} minutes`;
    else if (start < earliest) reason = `intervalStart is more than ${maxAgeHours} hours old`;
    else if (BigInt(s.bytesIn) > MAX_BYTES || BigInt(s.bytesOut) > MAX_BYTES) reason = 'byte count too large';
    else if (!UUID.test(s.portId)) reason = 'portId is not a port id';
    if (reason) out.refused.push({ index, reason });
    else out.samples.push({ port_id: s.portId, interval_start: new Date(start).toISOString(), bytes_in: s.bytesIn, bytes_out: s.bytesOut });
  }
  return out;
}
