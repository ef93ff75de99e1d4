import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';

// Source-port slices of a modem's egress address (docs/decisions/037-fingerprint-presets.md, issue 30 item 7). The
// preset namespaces are SNATed onto the modem's egress address, where the agent's native sockets also leave, toward
// the same sites. A site that closed first keeps the tuple in TIME_WAIT (Linux: 60 s) and takes a new SYN on it only
// when its sequence or timestamp is past the last connection's; one source reusing its own tuple always is (its
// kernel's sequence and timestamp offsets for the tuple advance with the clock), another source's is random, and about
// half the time the SYN is refused and waits a second for its retransmission. So every source of an egress gets its own
// ports: native keeps the host's ephemeral range (`ip_local_port_range`, untouched), each preset's namespace gets a
// slice of the ports outside it as its own `ip_local_port_range`, and the SNAT keeps the namespace's port (it does when
// the tuple is free, which disjoint slices make it) or moves it within the slice. Nothing host-wide changes.

type Preset = Exclude<FingerprintPresetId, 'native'>;

export interface PortRange {
  first: number;
  last: number;
}

/** The slice order: a preset keeps its slice whatever the others in use (one egress carries at most one of each). */
const ORDER: readonly Preset[] = ['windows', 'macos', 'ios', 'android'];
/** Below this, ports are privileged (and well known); a namespace's sockets take none of them. */
const LOWEST = 1024;
/** A smaller slice would limit a preset to too few connections per site: the namespace keeps its kernel's range. */
const SMALLEST_SLICE = 1024;

/** The host's ephemeral range, as `/proc/sys/net/ipv4/ip_local_port_range` reads ("32768\t60999"). */
export function parsePortRange(text: string): PortRange {
  const [first, last] = text.trim().split(/\s+/).map(Number);
  if (!Number.isInteger(first) || !Number.isInteger(last) || first! > last!) throw new Error(`not a port range: ${JSON.stringify(text)}`);
  return { first: first!, last: last! };
}

/**
 * A preset's ports on an egress: a quarter of the larger run of ports outside the host's ephemeral range (with the
 * defaults, 32768-60999, that is 1024-32767: 7,936 ports each; a source reuses its own tuples, so the slice bounds
 * only the connections open to one site at once). Null when the host's range leaves too little outside it: the
 * namespace keeps its kernel's range, and a tuple native used last may cost a preset connection a retransmitted SYN.
 */
export function presetPortSlice(preset: Preset, host: PortRange): PortRange | null {
  const below = { first: LOWEST, last: host.first - 1 };
  const above = { first: host.last + 1, last: 65535 };
  const size = (r: PortRange) => Math.max(0, r.last - r.first + 1);
  const run = size(below) >= size(above) ? below : above;
  // Even-sized slices from an even port: each starts even and ends odd, the parity the kernel prefers (connect()
  // takes even ports first, bind() odd ones).
  const start = run.first + (run.first % 2);
  const each = Math.floor((run.last - start + 1) / ORDER.length) & ~1;
  if (each < SMALLEST_SLICE) return null;
  const first = start + ORDER.indexOf(preset) * each;
  return { first, last: first + each - 1 };
}
