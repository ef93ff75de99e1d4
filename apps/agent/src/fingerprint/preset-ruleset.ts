import { FINGERPRINT_PRESETS, type FingerprintPresetId } from '@cellport/shared/fingerprint-presets';

// The host's netfilter rules for the fingerprint presets (docs/decisions/037-fingerprint-presets.md), rendered whole
// from the agent's model of its preset namespaces, so one `nft -f` replaces them atomically. Each preset namespace
// reaches the modem through a veth whose host end is `<prefix><slot>`; its SYNs are already right in TTL, window,
// scale, MSS and timestamps (the namespace's own sysctls and route); here they get their option layout:
// - Windows: Linux's no-timestamp layout `mss,nop,nop,sok,nop,ws` and Windows' `mss,nop,ws,nop,nop,sok` are the same
//   three 32-bit words in another order, so one payload write swaps them (checksum-neutral, byte-exact);
// - Apple (macOS, iOS): 4 bytes longer, so the SYN goes to an NFQUEUE rewrite (apple-syn-rewrite.c; the queue rule
//   is an iptables rule: this kernel's nftables has no native queue expression, its xtables NFQUEUE target does).
// Then a check chain, after every rewrite, drops any SYN from a preset namespace that is not exactly the preset's
// layout, TTL and window: a rewrite that broke fails closed, it never leaks the native SYN.

export interface PresetSlot {
  slot: number;
  preset: Exclude<FingerprintPresetId, 'native'>;
  /** The modem's egress address: what the SYN leaves the host from (SNAT). */
  egress: string;
  /** The TTL as it leaves this host (the preset's, plus the hops after it: a HiLink's own NAT). */
  ttlOnLeaving: number;
}

const SYN = 'tcp flags & (fin|syn|rst|ack) == syn';
/** Linux's no-timestamp options after the MSS (nop,nop,sok | nop,ws,<shift>) and Windows' (nop,ws,<shift> | nop,nop,sok). */
const linuxNoTs = (shift: number) => `0x01010402010303${hex(shift)}`;
const windowsLayout = (shift: number) => `0x010303${hex(shift)}01010402`;
/** Apple's options after the MSS: nop,ws,<shift> | nop,nop,ts. */
const appleStart = (shift: number) => `0x010303${hex(shift)}0101080a`;
const hex = (n: number) => n.toString(16).padStart(2, '0');

export const isApple = (preset: FingerprintPresetId) => preset === 'macos' || preset === 'ios';

export function renderRuleset(table: string, prefix: string, slots: readonly PresetSlot[], guardedUplinks: readonly string[]): string {
  const rewrite: string[] = [];
  const check: string[] = [];
  const nat: string[] = [];
  for (const s of slots) {
    const dev = `${prefix}${s.slot}`;
    const p = FINGERPRINT_PRESETS[s.preset];
    const iif = `iifname "${dev}"`;
    if (s.preset === 'windows') {
      rewrite.push(`${iif} ${SYN} @th,192,64 ${linuxNoTs(p.windowScale)} @th,192,64 set ${windowsLayout(p.windowScale)}`);
      check.push(`${iif} ${SYN} @th,96,4 != 8 drop`, `${iif} ${SYN} @th,192,64 != ${windowsLayout(p.windowScale)} drop`);
    } else if (isApple(s.preset)) {
      check.push(`${iif} ${SYN} @th,96,4 != 11 drop`, `${iif} ${SYN} @th,192,64 != ${appleStart(p.windowScale)} drop`,
        `${iif} ${SYN} @th,320,32 != 0x04020000 drop`);
    } else {
      // Android: Linux's own layout (mss,sok,ts,nop,ws) with the preset's scale in its last byte.
      check.push(`${iif} ${SYN} @th,96,4 != 10 drop`, `${iif} ${SYN} @th,296,16 != 0x0303 drop`, `${iif} ${SYN} @th,312,8 != ${p.windowScale} drop`);
    }
    check.push(`${iif} ${SYN} tcp window != ${p.window} drop`, `${iif} ip ttl != ${s.ttlOnLeaving} drop`);
    nat.push(`${iif} snat ip to ${s.egress}`);
  }
  const wildcard = `"${prefix}*"`;
  return [
    `table inet ${table} {`,
    '  chain rewrite {',
    '    type filter hook forward priority mangle; policy accept;',
    ...rewrite.map((r) => `    ${r}`),
    '  }',
    // After the NFQUEUE rewrite (reinjected at the next priority) and the payload write.
    '  chain check {',
    '    type filter hook forward priority 100; policy accept;',
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
    '  chain post {',
    '    type nat hook postrouting priority srcnat; policy accept;',
    ...nat.map((r) => `    ${r}`),
    '  }',
    '}',
  ].join('\n');
}
