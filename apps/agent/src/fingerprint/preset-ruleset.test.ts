import { describe, expect, it } from 'vitest';
import { FINGERPRINT_PRESETS } from '@cellport/shared/fingerprint-presets';
import { checkChain, CLOSED_FLOW_SECONDS, renderRuleset, synShape, type PresetSlot } from './preset-ruleset.js';

// The host's rules per address family (decision 037): what the netns test proves on the wire, pinned here line by
// line where it runs without root: a slot checks and SNATs only its egress's family and drops the other's TCP/UDP.

const slot = (over: Partial<PresetSlot>): PresetSlot => ({
  slot: 0, preset: 'windows', egress: '10.0.0.5', ttlAtVeth: 129, loopback: false, hostAddress: '100.127.0.1', ports: null, ...over,
});
const linesOf = (ruleset: string) => ruleset.split('\n').map((l) => l.trim());
/** The rules of one chain of a rendered ruleset (its body, trimmed). */
function chainOf(ruleset: string, name: string): string[] {
  const lines = linesOf(ruleset);
  const start = lines.indexOf(`chain ${name} {`);
  if (start < 0) return [];
  return lines.slice(start + 1, lines.indexOf('}', start));
}
/** A slot's checks: its veth's packets reach them (the dispatch names its chain), and no other packet does. */
function checksOf(ruleset: string, prefix: string, slot: number): string[] {
  const dispatch = chainOf(ruleset, 'check').find((l) => l.startsWith('iifname vmap {')) ?? '';
  expect(dispatch).toContain(`"${prefix}${slot}" : jump ${checkChain(slot)}`);
  return chainOf(ruleset, checkChain(slot));
}

describe('the host ruleset by family', () => {
  it('an IPv4 egress: TTL checked, SNAT to it, the namespace\'s IPv6 TCP and UDP dropped (neighbour discovery kept)', () => {
    const ruleset = renderRuleset('cp', 'cp', [slot({})], [{ device: 'wwan0', family: 4 }]);
    const lines = linesOf(ruleset);
    const checks = checksOf(ruleset, 'cp', 0);
    expect(checks).toContain('meta nfproto ipv6 meta l4proto { tcp, udp } drop');
    expect(checks).toContain('ip ttl != 129 drop');
    expect(lines).toContain('iifname "cp0" meta nfproto ipv4 snat ip to 10.0.0.5');
    expect(lines.some((l) => l.includes('l4proto { tcp, udp } snat'))).toBe(false);
    expect(checks).toContain(`tcp flags & (fin|syn|rst|ack) == syn tcp window != ${FINGERPRINT_PRESETS.windows.window} drop`);
    expect(lines).toContain('iifname "wwan0" meta nfproto ipv4 drop');
    expect(lines.some((l) => l.includes('hoplimit'))).toBe(false);
  });

  it('an IPv6 egress: hop limit checked on TCP and UDP only, SNAT6 to it, the IPv6 window, the namespace\'s IPv4 dropped', () => {
    const ruleset = renderRuleset('cp', 'cp', [slot({ slot: 3, egress: '2a00:1::5' })], [{ device: 'wwan1', family: 6 }]);
    const lines = linesOf(ruleset);
    const checks = checksOf(ruleset, 'cp', 3);
    expect(checks).toContain('meta nfproto ipv4 drop');
    expect(checks).toContain('meta l4proto { tcp, udp } ip6 hoplimit != 129 drop');
    expect(lines).toContain('iifname "cp3" meta nfproto ipv6 snat ip6 to 2a00:1::5');
    expect(checks).toContain('tcp flags & (fin|syn|rst|ack) == syn tcp window != 64800 drop');
    expect(lines).toContain('iifname "wwan1" meta nfproto ipv6 drop');
    expect(lines.some((l) => l.includes('ip ttl'))).toBe(false);
  });

  it('closed TCP flows leaving by a modem leave conntrack after 1 s: the namespaces\' (forwarded) and native sockets bound to its egress', () => {
    const lines = linesOf(renderRuleset('cp', 'cp', [slot({}), slot({ slot: 1, preset: 'ios' }), slot({ slot: 2, egress: '2a00:1::5' }),
      slot({ slot: 3, egress: '127.0.0.9', loopback: true })], []));
    expect(lines).toContain(`policy = { time_wait : ${CLOSED_FLOW_SECONDS}, close : ${CLOSED_FLOW_SECONDS} }`);
    expect(lines).toContain('iifname "cp*" meta l4proto tcp ct timeout set "closed-flows"');
    // One rule per family, each modem's egress once; a simulated modem's flows are not SNATed, so not listed.
    expect(lines).toContain('ip saddr { 10.0.0.5 } meta l4proto tcp ct timeout set "closed-flows"');
    expect(lines).toContain('ip6 saddr { 2a00:1::5 } meta l4proto tcp ct timeout set "closed-flows"');
    expect(lines.filter((l) => l.includes('127.0.0.9'))).toEqual([]);
  });

  it('a simulated modem stays IPv4: DNAT to 127.0.0.1, no SNAT', () => {
    const ruleset = renderRuleset('cp', 'cp', [slot({ slot: 1, egress: '127.0.0.9', loopback: true, ttlAtVeth: 128, hostAddress: '100.127.0.5' })], []);
    const lines = linesOf(ruleset);
    expect(lines).toContain('iifname "cp1" ip daddr 100.127.0.5 dnat ip to 127.0.0.1');
    expect(checksOf(ruleset, 'cp', 1)).toContain('ip ttl != 128 drop');
    expect(lines.some((l) => l.includes('snat'))).toBe(false);
  });
});

describe('the check of a preset SYN', () => {
  it('each slot\'s checks in a chain of its own, reached by its veth only: one lookup per packet, however many slots', () => {
    const ruleset = renderRuleset('cp', 'cp', [slot({}), slot({ slot: 1, preset: 'ios', ttlAtVeth: 65 }), slot({ slot: 2, preset: 'android', ttlAtVeth: 65 })], []);
    expect(chainOf(ruleset, 'check')).toEqual([
      'type filter hook prerouting priority mangle; policy accept;',
      `iifname vmap { "cp0" : jump ${checkChain(0)}, "cp1" : jump ${checkChain(1)}, "cp2" : jump ${checkChain(2)} }`,
    ]);
    expect(checksOf(ruleset, 'cp', 1)).toContain('tcp flags & (fin|syn|rst|ack) == syn @th,320,32 != 0x04020000 drop');
    expect(checksOf(ruleset, 'cp', 2)).toContain('tcp flags & (fin|syn|rst|ack) == syn @th,312,8 != 3 drop');
    // A slot's own chain holds no other slot's rules (its packets meet only their preset's checks).
    expect(checksOf(ruleset, 'cp', 0).some((l) => l.includes('0x04020000'))).toBe(false);
  });

  it('no slots: the hook is there, with nothing to look up', () => {
    expect(chainOf(renderRuleset('cp', 'cp', [], []), 'check')).toEqual(['type filter hook prerouting priority mangle; policy accept;']);
  });
});

describe('the SNAT keeps a namespace\'s source ports in its slice', () => {
  it('TCP and UDP within the slice, both families; what has no ports (ICMP) by the plain rule after', () => {
    const ports = { first: 8960, last: 16895 };
    const lines = linesOf(renderRuleset('cp', 'cp', [slot({ preset: 'macos', ports }), slot({ slot: 2, egress: '2a00:1::5', ports })], []));
    const v4 = lines.indexOf('iifname "cp0" meta nfproto ipv4 meta l4proto { tcp, udp } snat ip to 10.0.0.5:8960-16895');
    expect(v4).toBeGreaterThanOrEqual(0);
    expect(lines.indexOf('iifname "cp0" meta nfproto ipv4 snat ip to 10.0.0.5')).toBeGreaterThan(v4);
    const v6 = lines.indexOf('iifname "cp2" meta nfproto ipv6 meta l4proto { tcp, udp } snat ip6 to [2a00:1::5]:8960-16895');
    expect(v6).toBeGreaterThanOrEqual(0);
    expect(lines.indexOf('iifname "cp2" meta nfproto ipv6 snat ip6 to 2a00:1::5')).toBeGreaterThan(v6);
  });
});

describe('the SYN\'s MSS and window by family', () => {
  it('IPv4 is the preset\'s; IPv6 has MSS 1440, Apple 65535, Windows 45 × 1440, Android p0f\'s mss*44', () => {
    expect(synShape('windows', 4)).toEqual({ mss: 1460, window: 64240, initialSegments: null });
    expect(synShape('windows', 6)).toEqual({ mss: 1440, window: 64800, initialSegments: null });
    expect(synShape('macos', 6)).toEqual({ mss: 1440, window: 65535, initialSegments: null });
    expect(synShape('ios', 6)).toEqual({ mss: 1440, window: 65535, initialSegments: null });
    expect(synShape('android', 6)).toEqual({ mss: 1440, window: 44 * 1440, initialSegments: 44 });
  });
});
