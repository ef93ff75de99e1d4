import { FINGERPRINT_PRESETS, type FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import type { PortRange } from './egress-port-slices.js';

// The netfilter rules of the fingerprint presets (docs/decisions/037-fingerprint-presets.md). Each preset namespace's
// SYNs are already right in TTL, window, scale, MSS and timestamps (its own sysctls and route); the option layout is
// put right inside the namespace, on its way out, so the veth already carries the final SYN (what tcpdump or p0f on
// the host sees is what the site sees):
// - Windows: Linux's no-timestamp layout `mss,nop,nop,sok,nop,ws` and Windows' `mss,nop,ws,nop,nop,sok` are the same
//   three 32-bit words in another order, so one payload write swaps them (checksum-neutral, byte-exact);
// - Apple (macOS, iOS): 4 bytes longer, so a tc-eBPF program on the veth's egress rewrites the SYN
//   (apple-syn-rewrite.bpf.c, attached by fingerprint-host.ts).
// On the host, rendered whole so one `nft -f` replaces it atomically, a check chain drops any SYN arriving from a
// preset namespace that is not exactly the preset's layout, scale, window and TTL: a rewrite that broke fails closed,
// it never leaks the native SYN. Then the host forwards and SNATs it to the modem's egress address. IPv4 and IPv6 alike:
// `@th` addresses the TCP header whatever the IP header before it, and the swap is checksum-neutral for IPv6's
// pseudo-header checksum too; only the hop limit and the SYN's MSS and window (synShape) differ by family.

type Preset = Exclude<FingerprintPresetId, 'native'>;

export interface PresetSlot {
  slot: number;
  preset: Preset;
  /** The modem's egress address: what the SYN leaves the host from (SNAT). */
  egress: string;
  /** The TTL as the SYN leaves the namespace (the preset's, plus the host's forwarding hop and the hops after it). */
  ttlAtVeth: number;
  /** A simulated modem (a loopback egress): the namespace's traffic is delivered on this host, not forwarded. */
  loopback: boolean;
  /** The host's address on the veth (loopback slots: their connections to 127.0.0.1 are sent here, DNATed back). */
  hostAddress: string;
  /** The namespace's own source ports on the egress (egress-port-slices.ts): the SNAT keeps TCP and UDP inside them. */
  ports: PortRange | null;
}

/** IPv6's header is 20 bytes longer than IPv4's: at the veth's MTU of 1500 the kernel's MSS is 1440, not 1460. */
const IPV6_MSS = 1440;

/**
 * The SYN's MSS and window as the far end sees them, by the egress's address family. IPv4: the preset's. IPv6: the
 * kernel's MSS for the MTU (1440), Apple's fixed 65535 (the rewrite writes it), and otherwise the largest multiple
 * of the MSS under 65536 (what Windows and Linux both send: 45 × 1440), except where p0f knows the preset by its
 * multiple (Android: mss*44), which the namespace's route keeps (`initrwnd`, fingerprint-host.ts).
 */
export function synShape(preset: Preset, family: 4 | 6): { mss: number; window: number; initialSegments: number | null } {
  const p = FINGERPRINT_PRESETS[preset];
  if (family === 4) return { mss: p.mss, window: p.window, initialSegments: null };
  if (p.window === 65535) return { mss: IPV6_MSS, window: 65535, initialSegments: null };
  if (preset === 'android') {
    const segments = p.window / p.mss;
    return { mss: IPV6_MSS, window: segments * IPV6_MSS, initialSegments: segments };
  }
  return { mss: IPV6_MSS, window: Math.floor(65535 / IPV6_MSS) * IPV6_MSS, initialSegments: null };
}

const familyOf = (address: string): 4 | 6 => (address.includes(':') ? 6 : 4);

const SYN = 'tcp flags & (fin|syn|rst|ack) == syn';
const hex = (n: number) => n.toString(16).padStart(2, '0');
/** Linux's no-timestamp options after the MSS (nop,nop,sok | nop,ws,<shift>) and Windows' (nop,ws,<shift> | nop,nop,sok). */
const linuxNoTs = (shift: number) => `0x01010402010303${hex(shift)}`;
const windowsLayout = (shift: number) => `0x010303${hex(shift)}01010402`;
/** Apple's options after the MSS: nop,ws,<shift> | nop,nop,ts. */
const appleStart = (shift: number) => `0x010303${hex(shift)}0101080a`;

export const isApple = (preset: FingerprintPresetId) => preset === 'macos' || preset === 'ios';

/**
 * How long the conntrack entry of a closed TCP flow leaving by a modem stays (seconds; the kernel's defaults are 120
 * for TIME_WAIT and 10 for CLOSE, host-wide). The preset flows are SNATed to the modem's egress address, where the
 * native sockets bound to it also leave, toward the same sites: NAT will not reuse a source port whose tuple conntrack
 * still tracks, so at 120 s the ~28,000 ports to one site ip:port ran out above ~230 new connections a second and
 * SYNs waited for retransmission. Past the close, the entry only lets a late retransmitted FIN or ACK through; the
 * sockets at both ends keep their own TIME_WAIT (decision 037).
 */
export const CLOSED_FLOW_SECONDS = 1;
const CLOSED = 'closed-flows';

/** The rules inside a preset's namespace (its veth end is eth0): the Windows swap; nothing for the others. */
export function renderNamespaceRuleset(preset: Preset): string | null {
  if (preset !== 'windows') return null;
  const shift = FINGERPRINT_PRESETS.windows.windowScale;
  return [
    'table inet cellport_fp {',
    '  chain out {',
    '    type filter hook postrouting priority mangle; policy accept;',
    `    oifname "eth0" ${SYN} @th,192,64 ${linuxNoTs(shift)} @th,192,64 set ${windowsLayout(shift)}`,
    '  }',
    '}',
  ].join('\n');
}

/**
 * The host's rules: the check of every preset SYN, the guard, the SNAT (and a simulated modem's way back to
 * 127.0.0.1), and the short conntrack life of closed flows that leave by a modem: the preset namespaces' (forwarded)
 * and the agent's native sockets bound to those modems' egress addresses (local), which share the SNAT's tuples.
 */
/** The host's chain of a slot's checks (renderRuleset). */
export const checkChain = (slot: number): string => `check-${slot}`;

export function renderRuleset(table: string, prefix: string, slots: readonly PresetSlot[], guardedUplinks: ReadonlyArray<{ device: string; family: 4 | 6 }>): string {
  /** Each slot's checks, in a chain of its own that only its veth's packets enter (checkChains). */
  const checks = new Map<number, string[]>();
  const nat: string[] = [];
  const dnat: string[] = [];
  for (const s of slots) {
    const iif = `iifname "${prefix}${s.slot}"`;
    const p = FINGERPRINT_PRESETS[s.preset];
    const check: string[] = [];
    checks.set(s.slot, check);
    // A simulated modem's namespace reaches this host's 127.0.0.1 over IPv4 only.
    const family = s.loopback ? 4 : familyOf(s.egress);
    // The other family has no way out of this namespace (no SNAT): dropped here, never forwarded from its private
    // address. IPv6's neighbour discovery on the veth (ICMPv6) stays, so the host can reach the namespace.
    check.push(family === 4 ? 'meta nfproto ipv6 meta l4proto { tcp, udp } drop' : 'meta nfproto ipv4 drop');
    if (s.preset === 'windows') {
      check.push(`${SYN} @th,96,4 != 8 drop`, `${SYN} @th,192,64 != ${windowsLayout(p.windowScale)} drop`);
    } else if (isApple(s.preset)) {
      check.push(`${SYN} @th,96,4 != 11 drop`, `${SYN} @th,192,64 != ${appleStart(p.windowScale)} drop`,
        `${SYN} @th,320,32 != 0x04020000 drop`);
    } else {
      // Android: Linux's own layout (mss,sok,ts,nop,ws) with the preset's scale in its last byte.
      check.push(`${SYN} @th,96,4 != 10 drop`, `${SYN} @th,296,16 != 0x0303 drop`, `${SYN} @th,312,8 != ${p.windowScale} drop`);
    }
    check.push(`${SYN} tcp window != ${synShape(s.preset, family).window} drop`);
    // ICMPv6 keeps its own hop limits (neighbour discovery must carry 255): only TCP and UDP are checked.
    check.push(family === 4 ? `ip ttl != ${s.ttlAtVeth} drop` : `meta l4proto { tcp, udp } ip6 hoplimit != ${s.ttlAtVeth} drop`);
    if (s.loopback) dnat.push(`${iif} ip daddr ${s.hostAddress} dnat ip to 127.0.0.1`);
    else {
      // The namespace's port when its tuple is free (disjoint slices keep it free), else another of its slice; what
      // has no ports (ICMP) by the rule after.
      const [match, to, address] = family === 4 ? ['meta nfproto ipv4', 'ip', s.egress] : ['meta nfproto ipv6', 'ip6', `[${s.egress}]`];
      if (s.ports) nat.push(`${iif} ${match} meta l4proto { tcp, udp } snat ${to} to ${address}:${s.ports.first}-${s.ports.last}`);
      nat.push(`${iif} ${match} snat ${to} to ${s.egress}`);
    }
  }
  const wildcard = `"${prefix}*"`;
  // Native sockets bound to a modem that has preset namespaces (a simulated modem's flows stay on this host, unSNATed).
  const egresses = (family: 4 | 6) => [...new Set(slots.filter((s) => !s.loopback && familyOf(s.egress) === family).map((s) => s.egress))];
  const native = ([4, 6] as const).flatMap((family) => {
    const set = egresses(family);
    return set.length === 0 ? [] : [`${family === 4 ? 'ip' : 'ip6'} saddr { ${set.join(', ')} } meta l4proto tcp ct timeout set "${CLOSED}"`];
  });
  return [
    `table inet ${table} {`,
    // Applied to a flow's first packet (conntrack has made its entry, not yet confirmed it); only the states after
    // the close are shortened, so the guard's `ct state established,related` holds for as long as a flow is open.
    `  ct timeout ${CLOSED} {`,
    '    protocol tcp;',
    `    policy = { time_wait : ${CLOSED_FLOW_SECONDS}, close : ${CLOSED_FLOW_SECONDS} }`,
    '  }',
    '  chain closed-forwarded {',
    '    type filter hook prerouting priority filter; policy accept;',
    `    iifname ${wildcard} meta l4proto tcp ct timeout set "${CLOSED}"`,
    '  }',
    '  chain closed-local {',
    '    type filter hook output priority filter; policy accept;',
    ...native.map((r) => `    ${r}`),
    '  }',
    // Before anything else sees them (the NAT at dstnat, the forwarding): what came out of a preset namespace. Every
    // packet the host receives passes this hook, so it finds its slot's checks by one lookup of its interface: with
    // the checks in one chain, each packet was held against every slot's six or seven rules in turn (a host with
    // ten modems' four presets: some 260), which cost a forwarded packet ~0.3 µs of CPU more with four slots
    // (bench/BENCHMARKS.md, 2026-12-07 04:16).
    ...[...checks].flatMap(([slot, rules]) => [`  chain ${checkChain(slot)} {`, ...rules.map((r) => `    ${r}`), '  }']),
    '  chain check {',
    '    type filter hook prerouting priority mangle; policy accept;',
    ...(checks.size === 0 ? [] : [`    iifname vmap { ${[...checks.keys()].map((slot) => `"${prefix}${slot}" : jump ${checkChain(slot)}`).join(', ')} }`]),
    '  }',
    // Only replies may reach a preset namespace; an uplink that had to forward for them forwards nothing else (in the
    // family it was turned on for).
    '  chain guard {',
    '    type filter hook forward priority 0; policy accept;',
    `    oifname ${wildcard} ct state established,related accept`,
    `    oifname ${wildcard} drop`,
    ...guardedUplinks.map(({ device, family }) => `    iifname "${device}" meta nfproto ipv${family} drop`),
    '  }',
    '  chain pre {',
    '    type nat hook prerouting priority dstnat; policy accept;',
    ...dnat.map((r) => `    ${r}`),
    '  }',
    '  chain post {',
    '    type nat hook postrouting priority srcnat; policy accept;',
    ...nat.map((r) => `    ${r}`),
    '  }',
    '}',
  ].join('\n');
}
