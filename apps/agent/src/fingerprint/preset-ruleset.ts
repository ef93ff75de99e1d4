import { FINGERPRINT_PRESETS, type FingerprintPresetId } from '@cellport/shared/fingerprint-presets';

// The netfilter rules of the fingerprint presets (docs/decisions/037-fingerprint-presets.md). Each preset namespace's
// SYNs are already right in TTL, window, scale, MSS and timestamps (its own sysctls and route); the option layout is
// put right inside the namespace, on its way out, so the veth already carries the final SYN (what tcpdump or p0f on
// the host sees is what the site sees):
// - Windows: Linux's no-timestamp layout `mss,nop,nop,sok,nop,ws` and Windows' `mss,nop,ws,nop,nop,sok` are the same
//   three 32-bit words in another order, so one payload write swaps them (checksum-neutral, byte-exact);
// - Apple (macOS, iOS): 4 bytes longer, so the SYN goes to an NFQUEUE rewrite (apple-syn-rewrite.c; the queue rule is
//   an iptables rule: this kernel's nftables has no native queue expression, its xtables NFQUEUE target does).
// On the host, rendered whole so one `nft -f` replaces it atomically, a check chain drops any SYN arriving from a
// preset namespace that is not exactly the preset's layout, scale, window and TTL: a rewrite that broke fails closed,
// it never leaks the native SYN. Then the host forwards and SNATs it to the modem's egress address.

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
}

const SYN = 'tcp flags & (fin|syn|rst|ack) == syn';
const hex = (n: number) => n.toString(16).padStart(2, '0');
/** Linux's no-timestamp options after the MSS (nop,nop,sok | nop,ws,<shift>) and Windows' (nop,ws,<shift> | nop,nop,sok). */
const linuxNoTs = (shift: number) => `0x01010402010303${hex(shift)}`;
const windowsLayout = (shift: number) => `0x010303${hex(shift)}01010402`;
/** Apple's options after the MSS: nop,ws,<shift> | nop,nop,ts. */
const appleStart = (shift: number) => `0x010303${hex(shift)}0101080a`;

export const isApple = (preset: FingerprintPresetId) => preset === 'macos' || preset === 'ios';

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

/** The host's rules: the check of every preset SYN, the guard, the SNAT (and a simulated modem's way back to 127.0.0.1). */
export function renderRuleset(table: string, prefix: string, slots: readonly PresetSlot[], guardedUplinks: readonly string[]): string {
  const check: string[] = [];
  const nat: string[] = [];
  const dnat: string[] = [];
  for (const s of slots) {
    const iif = `iifname "${prefix}${s.slot}"`;
    const p = FINGERPRINT_PRESETS[s.preset];
    if (s.preset === 'windows') {
      check.push(`${iif} ${SYN} @th,96,4 != 8 drop`, `${iif} ${SYN} @th,192,64 != ${windowsLayout(p.windowScale)} drop`);
    } else if (isApple(s.preset)) {
      check.push(`${iif} ${SYN} @th,96,4 != 11 drop`, `${iif} ${SYN} @th,192,64 != ${appleStart(p.windowScale)} drop`,
        `${iif} ${SYN} @th,320,32 != 0x04020000 drop`);
    } else {
      // Android: Linux's own layout (mss,sok,ts,nop,ws) with the preset's scale in its last byte.
      check.push(`${iif} ${SYN} @th,96,4 != 10 drop`, `${iif} ${SYN} @th,296,16 != 0x0303 drop`, `${iif} ${SYN} @th,312,8 != ${p.windowScale} drop`);
    }
    check.push(`${iif} ${SYN} tcp window != ${p.window} drop`, `${iif} ip ttl != ${s.ttlAtVeth} drop`);
    if (s.loopback) dnat.push(`${iif} ip daddr ${s.hostAddress} dnat ip to 127.0.0.1`);
    else nat.push(`${iif} snat ip to ${s.egress}`);
  }
  const wildcard = `"${prefix}*"`;
  return [
    `table inet ${table} {`,
    // Before anything else sees them (the NAT at dstnat, the forwarding): what came out of a preset namespace.
    '  chain check {',
    '    type filter hook prerouting priority mangle; policy accept;',
    // IPv6 from a preset namespace is not carried yet: dropped, never sent native.
    `    iifname ${wildcard} meta nfproto ipv6 drop`,
    ...check.map((r) => `    ${r}`),
    '  }',
    // Only replies may reach a preset namespace; an uplink that had to forward for them forwards nothing else.
    '  chain guard {',
    '    type filter hook forward priority 0; policy accept;',
    `    oifname ${wildcard} ct state established,related accept`,
    `    oifname ${wildcard} drop`,
    ...guardedUplinks.map((dev) => `    iifname "${dev}" drop`),
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
