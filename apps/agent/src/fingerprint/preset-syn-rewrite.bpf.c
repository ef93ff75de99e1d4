/*
 * Cellport fingerprint presets (issue 30, docs/decisions/037-fingerprint-presets.md): the preset's SYN and TTL, made
 * in the kernel on the way out of the modem's interface. A tc-eBPF program on the interface's egress.
 *
 * Which packets: those of a preset socket, which the agent makes with a mark (SO_MARK) that says the preset, its
 * window scale and the TTL the packet must leave with: MARK_MAGIC | scale << 12 | layout << 8 | ttl. Everything
 * unmarked passes untouched at once (the host's own traffic, the native ports').
 *
 * What it does to them:
 *   - every packet: the TTL (IPv6: hop limit) the mark says. The socket itself sends with TTL 1, so a packet this
 *     program did not pass dies at the first router after the host (the modem), and the filter after this one
 *     (preset_check, below) drops any marked packet that reaches it: a detached or failed rewrite fails closed, never
 *     sends the host's own fingerprint;
 *   - IPv6: no flow label (p0f counts one as a quirk no preset's signature has);
 *   - the SYN (SYN alone): Linux's layout with timestamps (mss,sok,ts,nop,ws: 20 bytes of options) becomes the
 *     preset's: Windows mss,nop,ws,nop,nop,sok (12 bytes: the timestamps go; the peer's SYN-ACK then carries none and
 *     the kernel keeps the connection without them), Apple mss,nop,ws,nop,nop,ts,sok,eol plus one byte of padding
 *     (24 bytes), Android Linux's own; the window the preset's (Windows the largest multiple of the MSS under 65536,
 *     Apple 65535, Android 44 MSS); ECN's request bits cleared. The kernel's own MSS, scale and timestamp values stay,
 *     so the connection that follows is the kernel's own. A SYN of another layout or scale is dropped.
 *
 * Built on the host at first use with clang -target bpf and Debian's libbpf-dev headers, once with L3 at 14 (Ethernet,
 * loopback, a HiLink's USB network) and once at 0 (a raw-IP modem interface: QMI, MBIM); attached with
 * `tc filter add dev <if> egress pref <n> bpf direct-action obj <file> sec tc` (and `sec check` at n + 1).
 *
 * Length changes happen at the tail (bpf_skb_change_tail: the SYN has no payload), so the TCP header stays where it is
 * and with it the checksum offload's csum_start. Checksums: the IP header's for its new length and TTL; the TCP one
 * for the changed words and the pseudo-header's new length by bpf_l4_csum_replace, right for CHECKSUM_PARTIAL (the
 * stack's usual SYN: only the length goes in; the device sums the new bytes) and for a complete checksum.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#ifndef L3_OFFSET
#define L3_OFFSET 14
#endif

#define MARK_MAGIC 0x43500000u /* "CP": the agent's preset sockets (fingerprint-host.ts presetMark) */
#define MARK_MASK 0xffff0000u
#define LAYOUT_WINDOWS 1
#define LAYOUT_APPLE 2
#define LAYOUT_ANDROID 3

#define TCP_BASE 20   /* a TCP header without options */
#define LINUX_OPT 20  /* Linux's SYN options with timestamps */
#define WINDOWS_OPT 12
#define APPLE_OPT 24

/*
 * The new offset/flags/window word and options (`to`: those 4 bytes, then the options) in place of the old ones
 * (`from`, the same way): the checksum and urgent pointer between them (bytes 16-19) stay. Sizes are fixed per layout
 * for the verifier.
 */
static __always_inline int finish(struct __sk_buff *skb, __u32 l3, __u32 l4, int v6, __u32 *from, __u8 *to, __u32 to_size) {
  __s64 diff = bpf_csum_diff(from, 4 + LINUX_OPT, (__u32 *)to, to_size, 0);
  if (diff < 0) return TC_ACT_SHOT;
  __s32 grow = (__s32)to_size - (4 + LINUX_OPT);
  if (grow != 0 && bpf_skb_change_tail(skb, skb->len + grow, 0) < 0) return TC_ACT_SHOT;
  if (bpf_skb_store_bytes(skb, l4 + 12, to, 4, 0) < 0 || bpf_skb_store_bytes(skb, l4 + TCP_BASE, to + 4, to_size - 4, 0) < 0)
    return TC_ACT_SHOT;
  __u32 check = l4 + 16;
  if (bpf_l4_csum_replace(skb, check, 0, (__u32)diff, 0) < 0) return TC_ACT_SHOT;
  if (grow == 0) return TC_ACT_OK;
  __u16 was_len = TCP_BASE + LINUX_OPT, new_len = (__u16)(TCP_BASE + to_size - 4);
  if (bpf_l4_csum_replace(skb, check, bpf_htons(was_len), bpf_htons(new_len), BPF_F_PSEUDO_HDR | 2) < 0) return TC_ACT_SHOT;
  if (v6) {
    __be16 len = bpf_htons(new_len);
    if (bpf_skb_store_bytes(skb, l3 + 4, &len, 2, 0) < 0) return TC_ACT_SHOT;
  } else {
    __be16 was, len;
    if (bpf_skb_load_bytes(skb, l3 + 2, &was, 2) < 0) return TC_ACT_SHOT;
    len = bpf_htons((__u16)(bpf_ntohs(was) + grow));
    if (bpf_l3_csum_replace(skb, l3 + 10, was, len, 2) < 0 || bpf_skb_store_bytes(skb, l3 + 2, &len, 2, 0) < 0) return TC_ACT_SHOT;
  }
  return TC_ACT_OK;
}

static __always_inline int rewrite_syn(struct __sk_buff *skb, __u32 l3, __u32 l4, int v6, __u32 layout, __u32 scale) {
  __u8 old[TCP_BASE + LINUX_OPT];
  if (skb->len != l4 + TCP_BASE + LINUX_OPT) return TC_ACT_SHOT; /* a SYN of another length: not the layout it knows */
  if (bpf_skb_load_bytes(skb, l4, old, sizeof old) < 0) return TC_ACT_SHOT;
  if ((old[12] >> 4) != (TCP_BASE + LINUX_OPT) / 4) return TC_ACT_SHOT;
  const __u8 *o = old + TCP_BASE;
  /* Linux: 02 04 m m | 04 02 08 0a | tsval | tsecr | 01 03 03 s */
  if (o[0] != 2 || o[1] != 4 || o[4] != 4 || o[5] != 2 || o[6] != 8 || o[7] != 10 || o[16] != 1 || o[17] != 3 || o[18] != 3)
    return TC_ACT_SHOT;
  if (o[19] != scale) return TC_ACT_SHOT; /* the kernel planned another scale: not the preset's SYN */
  __u32 mss = ((__u32)o[2] << 8) | o[3];
  if (mss == 0) return TC_ACT_SHOT;
  __u32 from[6];
  __builtin_memcpy(from, old + 12, 4);
  __builtin_memcpy((__u8 *)from + 4, o, LINUX_OPT);
  __u8 head0 = old[12] & 0x0f, flags = old[13] & 0x3f; /* ECE and CWR (ECN's request) cleared */
  if (layout == LAYOUT_WINDOWS) {
    __u8 t[4 + WINDOWS_OPT];
    __u32 window = (65535 / mss) * mss;
    t[0] = (__u8)(((TCP_BASE + WINDOWS_OPT) / 4) << 4 | head0); t[1] = flags; t[2] = (__u8)(window >> 8); t[3] = (__u8)window;
    t[4] = 2; t[5] = 4; t[6] = o[2]; t[7] = o[3];       /* mss */
    t[8] = 1; t[9] = 3; t[10] = 3; t[11] = o[19];       /* nop, ws <scale> */
    t[12] = 1; t[13] = 1; t[14] = 4; t[15] = 2;         /* nop, nop, sok */
    return finish(skb, l3, l4, v6, from, t, sizeof t);
  }
  if (layout == LAYOUT_APPLE) {
    __u8 t[4 + APPLE_OPT];
    t[0] = (__u8)(((TCP_BASE + APPLE_OPT) / 4) << 4 | head0); t[1] = flags; t[2] = 0xff; t[3] = 0xff;
    t[4] = 2; t[5] = 4; t[6] = o[2]; t[7] = o[3];       /* mss */
    t[8] = 1; t[9] = 3; t[10] = 3; t[11] = o[19];       /* nop, ws <scale> */
    t[12] = 1; t[13] = 1; t[14] = 8; t[15] = 10;        /* nop, nop, ts */
    __builtin_memcpy(t + 16, o + 8, 8);                 /* tsval, tsecr */
    t[24] = 4; t[25] = 2; t[26] = 0; t[27] = 0;         /* sok, eol, padding */
    return finish(skb, l3, l4, v6, from, t, sizeof t);
  }
  if (layout == LAYOUT_ANDROID) {
    __u8 t[4 + LINUX_OPT];
    __u32 window = 44 * mss;
    if (window > 65535) return TC_ACT_SHOT;
    __builtin_memcpy(t, from, sizeof t);
    t[1] = flags; t[2] = (__u8)(window >> 8); t[3] = (__u8)window;
    return finish(skb, l3, l4, v6, from, t, sizeof t);
  }
  return TC_ACT_SHOT;
}

SEC("tc")
int preset_egress(struct __sk_buff *skb) {
  __u32 mark = skb->mark;
  if ((mark & MARK_MASK) != MARK_MAGIC) return TC_ACT_OK; /* not a preset socket's: untouched */
  __u32 ttl = mark & 0xff, layout = (mark >> 8) & 0x0f, scale = (mark >> 12) & 0x0f;
  __u32 l3 = L3_OFFSET;
  __u8 l4proto;
  __u32 l4;
  int v6;
  if (skb->protocol == bpf_htons(ETH_P_IP)) {
    __u8 vihl;
    if (bpf_skb_load_bytes(skb, l3, &vihl, 1) < 0 || bpf_skb_load_bytes(skb, l3 + 9, &l4proto, 1) < 0) return TC_ACT_SHOT;
    __u32 ihl = (vihl & 0x0f) * 4;
    if (ihl < 20) return TC_ACT_SHOT;
    l4 = l3 + ihl;
    v6 = 0;
  } else if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
    if (bpf_skb_load_bytes(skb, l3 + 6, &l4proto, 1) < 0) return TC_ACT_SHOT;
    l4 = l3 + 40;
    v6 = 1;
  } else {
    return TC_ACT_SHOT; /* a preset socket sends IP only */
  }
  if (l4proto == IPPROTO_TCP) {
    __u8 flags;
    if (bpf_skb_load_bytes(skb, l4 + 13, &flags, 1) < 0) return TC_ACT_SHOT;
    if ((flags & 0x17) == 0x02 && rewrite_syn(skb, l3, l4, v6, layout, scale) != TC_ACT_OK) return TC_ACT_SHOT;
  }
  if (v6) {
    /* Version and class stay; the flow label goes. Hop limit at byte 7. No header checksum. */
    __u8 head[4];
    if (bpf_skb_load_bytes(skb, l3, head, 4) < 0) return TC_ACT_SHOT;
    head[1] &= 0xf0; head[2] = 0; head[3] = 0;
    __u8 hops = (__u8)ttl;
    if (bpf_skb_store_bytes(skb, l3, head, 4, 0) < 0 || bpf_skb_store_bytes(skb, l3 + 7, &hops, 1, 0) < 0) return TC_ACT_SHOT;
  } else {
    /* TTL and protocol share the 16-bit word at byte 8. */
    __be16 was, now;
    if (bpf_skb_load_bytes(skb, l3 + 8, &was, 2) < 0) return TC_ACT_SHOT;
    now = bpf_htons((__u16)(ttl << 8 | l4proto));
    if (was != now && (bpf_l3_csum_replace(skb, l3 + 10, was, now, 2) < 0 || bpf_skb_store_bytes(skb, l3 + 8, &now, 2, 0) < 0))
      return TC_ACT_SHOT;
  }
  return TC_ACT_OK;
}

/*
 * The check, attached after the rewrite (the next preference): the rewrite ends classification for every packet it
 * passed, so a marked packet that reaches this program was not rewritten (the rewrite was detached, or never
 * attached): dropped, with the socket's TTL of 1 behind it should this program go too.
 */
SEC("check")
int preset_check(struct __sk_buff *skb) {
  return (skb->mark & MARK_MASK) == MARK_MAGIC ? TC_ACT_SHOT : TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
