/*
 * Cellport fingerprint presets (issue 30, docs/decisions/037-fingerprint-presets.md): Apple's SYN, made in the kernel.
 * A tc-eBPF program on the egress of an Apple preset namespace's veth (eth0) turns the SYN that Linux sends with
 * timestamps (options mss,sok,ts,nop,ws: 20 bytes) into Apple's layout (mss,nop,ws,nop,nop,ts,sok,eol plus one byte
 * of padding: 24 bytes) and its window into 65535, keeping the kernel's own MSS, scale and timestamp values, so the
 * connection that follows is the kernel's own. IPv4 and IPv6. Any other SYN (a layout it does not know) is dropped:
 * fail closed. Everything else passes untouched.
 *
 * The SYN has no payload, so it grows at its tail (bpf_skb_change_tail): the TCP header stays where it is, and with
 * it the checksum offload's csum_start. Checksums: the IP header's is updated for the new total length; the TCP one
 * for the changed words and the pseudo-header's new length by bpf_l4_csum_replace, which does the right thing for
 * both kinds of packet a veth carries: CHECKSUM_PARTIAL (the stack's usual SYN: the field holds the pseudo-header
 * sum, so only the length goes in; the device or the kernel's fallback sums the new bytes later) and a complete
 * checksum (every difference goes in).
 *
 * Built on the host at first use with clang -target bpf and Debian's libbpf-dev headers; attached with
 * `tc filter add dev eth0 egress bpf direct-action obj <file> sec tc`.
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

#define TCP_BASE 20 /* a TCP header without options */
#define LINUX_LEN 40 /* Linux's SYN with timestamps: 20 bytes of options */
#define APPLE_LEN 44 /* Apple's: 24 */

static __always_inline int rewrite(struct __sk_buff *skb, __u32 l3, __u32 l4, int v6) {
  __u8 flags;
  if (bpf_skb_load_bytes(skb, l4 + 13, &flags, 1) < 0) return TC_ACT_SHOT;
  if ((flags & 0x17) != 0x02) return TC_ACT_OK;       /* not a SYN alone (FIN, RST or ACK with it): not ours */
  __u8 old[LINUX_LEN];
  if (skb->len != l4 + LINUX_LEN) return TC_ACT_SHOT; /* a SYN of another length: not the layout it knows */
  if (bpf_skb_load_bytes(skb, l4, old, LINUX_LEN) < 0) return TC_ACT_SHOT;
  if ((old[12] >> 4) != LINUX_LEN / 4) return TC_ACT_SHOT;
  const __u8 *o = old + TCP_BASE;
  /* Linux: 02 04 m m | 04 02 08 0a | tsval | tsecr | 01 03 03 s */
  if (o[0] != 2 || o[1] != 4 || o[4] != 4 || o[5] != 2 || o[6] != 8 || o[7] != 10 || o[16] != 1 || o[17] != 3 || o[18] != 3)
    return TC_ACT_SHOT;
  /* The words that change, before and after: offset/flags/window, then the options (the checksum word is not summed). */
  __u32 from[6], to[7];
  __u8 *f = (__u8 *)from, *t = (__u8 *)to;
  __builtin_memcpy(f, old + 12, 4);
  __builtin_memcpy(f + 4, o, 20);
  t[0] = (__u8)((APPLE_LEN / 4) << 4 | (old[12] & 0x0f)); t[1] = old[13]; t[2] = 0xff; t[3] = 0xff;
  __u8 *n = t + 4;
  n[0] = 2; n[1] = 4; n[2] = o[2]; n[3] = o[3];       /* mss */
  n[4] = 1; n[5] = 3; n[6] = 3; n[7] = o[19];        /* nop, ws <scale> */
  n[8] = 1; n[9] = 1; n[10] = 8; n[11] = 10;         /* nop, nop, ts */
  __builtin_memcpy(n + 12, o + 8, 8);                /* tsval, tsecr */
  n[20] = 4; n[21] = 2; n[22] = 0; n[23] = 0;        /* sok, eol, padding */
  __s64 diff = bpf_csum_diff(from, sizeof from, to, sizeof to, 0);
  if (diff < 0) return TC_ACT_SHOT;
  if (bpf_skb_change_tail(skb, skb->len + (APPLE_LEN - LINUX_LEN), 0) < 0) return TC_ACT_SHOT;
  if (bpf_skb_store_bytes(skb, l4 + 12, t, 4, 0) < 0 || bpf_skb_store_bytes(skb, l4 + TCP_BASE, n, 24, 0) < 0) return TC_ACT_SHOT;
  __u32 check = l4 + 16;
  if (bpf_l4_csum_replace(skb, check, 0, (__u32)diff, 0) < 0) return TC_ACT_SHOT;
  if (bpf_l4_csum_replace(skb, check, bpf_htons(LINUX_LEN), bpf_htons(APPLE_LEN), BPF_F_PSEUDO_HDR | 2) < 0) return TC_ACT_SHOT;
  if (v6) {
    __be16 len = bpf_htons(APPLE_LEN);
    if (bpf_skb_store_bytes(skb, l3 + 4, &len, 2, 0) < 0) return TC_ACT_SHOT;
  } else {
    __be16 was, len;
    if (bpf_skb_load_bytes(skb, l3 + 2, &was, 2) < 0) return TC_ACT_SHOT;
    len = bpf_htons(bpf_ntohs(was) + (APPLE_LEN - LINUX_LEN));
    if (bpf_l3_csum_replace(skb, l3 + 10, was, len, 2) < 0 || bpf_skb_store_bytes(skb, l3 + 2, &len, 2, 0) < 0) return TC_ACT_SHOT;
  }
  return TC_ACT_OK;
}

SEC("tc")
int apple_syn(struct __sk_buff *skb) {
  __u32 l3 = sizeof(struct ethhdr);
  if (skb->protocol == bpf_htons(ETH_P_IP)) {
    __u8 vihl, proto;
    if (bpf_skb_load_bytes(skb, l3, &vihl, 1) < 0 || bpf_skb_load_bytes(skb, l3 + 9, &proto, 1) < 0) return TC_ACT_OK;
    if (proto != IPPROTO_TCP) return TC_ACT_OK;
    __u32 ihl = (vihl & 0x0f) * 4;
    if (ihl < 20) return TC_ACT_SHOT;
    return rewrite(skb, l3, l3 + ihl, 0);
  } else if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
    __u8 next;
    if (bpf_skb_load_bytes(skb, l3 + 6, &next, 1) < 0) return TC_ACT_OK;
    if (next != IPPROTO_TCP) return TC_ACT_OK;
    return rewrite(skb, l3, l3 + 40, 1);
  }
  return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
