/*
 * Cellport fingerprint presets (issue 30, docs/decisions/037-fingerprint-presets.md): the TCP socket of a connection
 * that leaves with a preset. Node cannot set socket options before it connects, and what the kernel puts in a SYN is
 * decided then, so this Node-API addon (the stable ABI: one build serves every Node version), built on the host on
 * first use against the node_api.h that comes with Node, makes the socket and sets them:
 *
 *   presetSocket(family, address, mark, windowClamp, receiveBuffer, maxSegment)
 *     a new non-blocking TCP socket (its descriptor), bound to the modem's egress `address` with the port left to
 *     connect() (IP_BIND_ADDRESS_NO_PORT: the kernel picks it by the whole four-tuple, no search of the address's
 *     ports), carrying:
 *       SO_MARK `mark`              which the egress program (preset-syn-rewrite.bpf.c) reads: preset, scale, TTL;
 *       TTL / hop limit 1           a packet that program did not pass dies at the first router (fail closed);
 *       TCP_WINDOW_CLAMP            caps the window the kernel plans for, which sets the SYN's window scale;
 *       SO_RCVBUFFORCE              only when `receiveBuffer` > 0: a host whose buffers are too small for the scale;
 *       TCP_MAXSEG                  only when `maxSegment` > 0: a simulated modem on loopback (MTU 64 KiB) gets the
 *                                   MSS of an ordinary link, as a real modem's interface gives by itself;
 *       IPV6_AUTOFLOWLABEL 0        IPv6: no flow label (the program clears one too).
 *
 * Errors throw a JavaScript Error whose code is the errno's name (EMFILE, EADDRNOTAVAIL, EPERM, ...).
 */
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif
#ifndef IPV6_AUTOFLOWLABEL
#define IPV6_AUTOFLOWLABEL 70
#endif

static napi_value fail(napi_env env, const char *what, int err) {
  char message[200];
  snprintf(message, sizeof message, "%s: %s", what, strerror(err));
  napi_throw_error(env, strerrorname_np(err), message);
  return NULL;
}

static int set_int(int fd, int level, int name, int value) {
  return setsockopt(fd, level, name, &value, sizeof value);
}

static napi_value preset_socket(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  int32_t family = 0, window_clamp = 0, receive_buffer = 0, max_segment = 0;
  uint32_t mark = 0;
  char address[64];
  size_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 6 ||
      napi_get_value_int32(env, argv[0], &family) != napi_ok ||
      napi_get_value_string_utf8(env, argv[1], address, sizeof address, &length) != napi_ok ||
      napi_get_value_uint32(env, argv[2], &mark) != napi_ok || napi_get_value_int32(env, argv[3], &window_clamp) != napi_ok ||
      napi_get_value_int32(env, argv[4], &receive_buffer) != napi_ok || napi_get_value_int32(env, argv[5], &max_segment) != napi_ok ||
      (family != 4 && family != 6) || window_clamp <= 0) {
    napi_throw_type_error(env, NULL, "presetSocket(family: 4 | 6, address: string, mark: number, windowClamp: number, receiveBuffer: number, maxSegment: number)");
    return NULL;
  }
  union {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
  } local;
  memset(&local, 0, sizeof local);
  socklen_t local_len;
  if (family == 4) {
    local.v4.sin_family = AF_INET;
    local_len = sizeof local.v4;
    if (inet_pton(AF_INET, address, &local.v4.sin_addr) != 1) return fail(env, "not an IPv4 address", EINVAL);
  } else {
    local.v6.sin6_family = AF_INET6;
    local_len = sizeof local.v6;
    if (inet_pton(AF_INET6, address, &local.v6.sin6_addr) != 1) return fail(env, "not an IPv6 address", EINVAL);
  }
  int fd = socket(family == 6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(env, "a socket for the preset", errno);
  const char *what = NULL;
  if (set_int(fd, SOL_SOCKET, SO_MARK, (int)mark) != 0) what = "SO_MARK";
  else if (family == 4 && set_int(fd, IPPROTO_IP, IP_TTL, 1) != 0) what = "IP_TTL";
  else if (family == 6 && set_int(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, 1) != 0) what = "IPV6_UNICAST_HOPS";
  else if (set_int(fd, IPPROTO_TCP, TCP_WINDOW_CLAMP, window_clamp) != 0) what = "TCP_WINDOW_CLAMP";
  else if (receive_buffer > 0 && set_int(fd, SOL_SOCKET, SO_RCVBUFFORCE, receive_buffer) != 0) what = "SO_RCVBUFFORCE";
  else if (max_segment > 0 && set_int(fd, IPPROTO_TCP, TCP_MAXSEG, max_segment) != 0) what = "TCP_MAXSEG";
  else if (set_int(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1) != 0) what = "IP_BIND_ADDRESS_NO_PORT";
  else if (bind(fd, (struct sockaddr *)&local, local_len) != 0) what = "binding to the modem's egress address";
  if (what != NULL) {
    int err = errno;
    close(fd);
    return fail(env, what, err);
  }
  /* Best effort: a kernel without the option sends a flow label, which the egress program clears anyway. */
  if (family == 6) set_int(fd, IPPROTO_IPV6, IPV6_AUTOFLOWLABEL, 0);
  napi_value out;
  napi_create_int32(env, fd, &out);
  return out;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "presetSocket", NAPI_AUTO_LENGTH, preset_socket, NULL, &fn);
  napi_set_named_property(env, exports, "presetSocket", fn);
  return exports;
}
