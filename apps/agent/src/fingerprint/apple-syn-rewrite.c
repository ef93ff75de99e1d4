/*
 * Cellport fingerprint presets (issue 30, docs/decisions/037-fingerprint-presets.md): rewrites the SYN that Linux
 * sends with timestamps (options mss,sok,ts,nop,ws: 20 bytes) into Apple's layout (mss,nop,ws,nop,nop,ts,sok,eol
 * plus one byte of padding: 24 bytes) and its window to 65535, keeping the kernel's own MSS, window scale and
 * timestamp values, so the connection that follows is the kernel's own. IPv4 and IPv6. The packet grows by 4 bytes:
 * the IP length, the TCP data offset and both checksums are recomputed.
 *
 * It serves one NFQUEUE queue (argv[1]); nftables sends it the SYNs of the Apple presets' namespaces without
 * "bypass", so while it is not running those SYNs are dropped, never sent native (fail closed). A SYN that does not
 * carry the exact Linux layout is dropped too. Built at install or first use from Debian's libnetfilter-queue-dev.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t acc) {
  for (size_t i = 0; i + 1 < n; i += 2) acc += (uint32_t)(p[i] << 8 | p[i + 1]);
  if (n & 1) acc += (uint32_t)(p[n - 1] << 8);
  return acc;
}

static uint16_t fold(uint32_t acc) {
  while (acc >> 16) acc = (acc & 0xffff) + (acc >> 16);
  return (uint16_t)~acc;
}

/* Rewrites the TCP header at tcp (tcp_len bytes, room for 4 more); returns the new TCP length or -1. */
static int rewrite_tcp(uint8_t *tcp, int tcp_len) {
  if (tcp_len != 40) return -1;                        /* 20 + 20 bytes of options, no payload */
  if ((tcp[13] & 0x12) != 0x02) return -1;             /* SYN without ACK */
  const uint8_t *o = tcp + 20;
  /* Linux: 02 04 m m | 04 02 08 0a | tsval | tsecr | 01 03 03 s */
  if (o[0] != 2 || o[1] != 4 || o[4] != 4 || o[5] != 2 || o[6] != 8 || o[7] != 10 || o[16] != 1 || o[17] != 3 || o[18] != 3) return -1;
  uint8_t mss[2] = { o[2], o[3] }, ts[8], scale = o[19];
  memcpy(ts, o + 8, 8);
  uint8_t *n = tcp + 20;
  n[0] = 2; n[1] = 4; n[2] = mss[0]; n[3] = mss[1];
  n[4] = 1; n[5] = 3; n[6] = 3; n[7] = scale;
  n[8] = 1; n[9] = 1; n[10] = 8; n[11] = 10;
  memcpy(n + 12, ts, 8);
  n[20] = 4; n[21] = 2; n[22] = 0; n[23] = 0;
  tcp[12] = (uint8_t)((11 << 4) | (tcp[12] & 0x0f)); /* data offset 44 bytes */
  tcp[14] = 0xff; tcp[15] = 0xff;                     /* window 65535 */
  return 44;
}

static int on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *data) {
  (void)msg; (void)data;
  struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
  uint32_t id = ph ? ntohl(ph->packet_id) : 0;
  unsigned char *payload;
  int len = nfq_get_payload(nfa, &payload);
  uint8_t buf[128];
  if (len <= 0 || len + 4 > (int)sizeof buf) return nfq_set_verdict(qh, id, NF_DROP, 0, NULL);
  memcpy(buf, payload, (size_t)len);
  int version = buf[0] >> 4;
  if (version == 4) {
    int ihl = (buf[0] & 0x0f) * 4;
    if (buf[9] != IPPROTO_TCP || ihl < 20 || len < ihl + 20) return nfq_set_verdict(qh, id, NF_DROP, 0, NULL);
    int tcp_len = rewrite_tcp(buf + ihl, len - ihl);
    if (tcp_len < 0) return nfq_set_verdict(qh, id, NF_DROP, 0, NULL);
    int total = ihl + tcp_len;
    buf[2] = (uint8_t)(total >> 8); buf[3] = (uint8_t)total;
    buf[10] = buf[11] = 0;
    uint16_t ipsum = fold(sum16(buf, (size_t)ihl, 0));
    buf[10] = (uint8_t)(ipsum >> 8); buf[11] = (uint8_t)ipsum;
    uint8_t *tcp = buf + ihl;
    tcp[16] = tcp[17] = 0;
    uint32_t acc = sum16(buf + 12, 8, 0) + IPPROTO_TCP + (uint32_t)tcp_len;
    uint16_t tsum = fold(sum16(tcp, (size_t)tcp_len, acc));
    tcp[16] = (uint8_t)(tsum >> 8); tcp[17] = (uint8_t)tsum;
    return nfq_set_verdict(qh, id, NF_ACCEPT, (uint32_t)total, buf);
  }
  if (version == 6) {
    if (buf[6] != IPPROTO_TCP || len < 40 + 20) return nfq_set_verdict(qh, id, NF_DROP, 0, NULL);
    int tcp_len = rewrite_tcp(buf + 40, len - 40);
    if (tcp_len < 0) return nfq_set_verdict(qh, id, NF_DROP, 0, NULL);
    buf[4] = (uint8_t)(tcp_len >> 8); buf[5] = (uint8_t)tcp_len;
    uint8_t *tcp = buf + 40;
    tcp[16] = tcp[17] = 0;
    uint32_t acc = sum16(buf + 8, 32, 0) + IPPROTO_TCP + (uint32_t)tcp_len;
    uint16_t tsum = fold(sum16(tcp, (size_t)tcp_len, acc));
    tcp[16] = (uint8_t)(tsum >> 8); tcp[17] = (uint8_t)tsum;
    return nfq_set_verdict(qh, id, NF_ACCEPT, (uint32_t)(40 + tcp_len), buf);
  }
  return nfq_set_verdict(qh, id, NF_DROP, 0, NULL);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <queue number>\n", argv[0]);
    return 2;
  }
  /* The agent owns the queue: if it dies (even by SIGKILL), so does the helper, and the queue is free for the next. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 1;
  int queue = atoi(argv[1]);
  struct nfq_handle *h = nfq_open();
  if (!h) { perror("nfq_open"); return 1; }
  struct nfq_q_handle *qh = nfq_create_queue(h, (uint16_t)queue, &on_packet, NULL);
  if (!qh) { perror("nfq_create_queue"); return 1; }
  if (nfq_set_mode(qh, NFQNL_COPY_PACKET, 0xffff) < 0) { perror("nfq_set_mode"); return 1; }
  /* The agent waits for this line: from now on the queue has a listener. */
  printf("ready %d\n", queue);
  fflush(stdout);
  int fd = nfq_fd(h);
  char rbuf[65536] __attribute__((aligned));
  for (;;) {
    ssize_t n = recv(fd, rbuf, sizeof rbuf, 0);
    if (n < 0) {
      if (errno == ENOBUFS || errno == EINTR) continue;
      perror("recv");
      return 1;
    }
    nfq_handle_packet(h, rbuf, (int)n);
  }
}
