/*
 * Cellport fingerprint presets (issue 30, docs/decisions/037-fingerprint-presets.md): makes a TCP socket inside a
 * preset's network namespace from the agent's own thread. A socket belongs to the namespace it was created in,
 * whoever connects it later, and Linux switches the network namespace per thread (setns): the calling thread enters
 * the preset's namespace, creates the socket and returns to its own, a few microseconds, with no other process and no
 * descriptor handed over per connection. Node cannot call setns, so this is a Node-API addon (the stable ABI: one
 * build serves every Node version), built on the host on first use like the Apple rewrite program, against the
 * node_api.h that comes with Node (Debian: the nodejs package).
 *
 *   openNamespace(path)               a descriptor of the network namespace at path (ip netns: /var/run/netns/<name>)
 *   tcpSocketsIn(namespace, 4|6, n)   an array of 1..n new, unconnected, non-blocking TCP sockets of that namespace
 *                                     (their descriptors), made on one entry: the two setns (4 us the pair on an EPYC,
 *                                     a third of a socket()+close()) are paid once per batch, not once per connection
 *
 * Errors throw a JavaScript Error whose code is the errno's name (EMFILE, EPERM, ...).
 */
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <node_api.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* The calling thread's own network namespace, opened on its first call: setns acts on one thread only. */
static __thread int own_namespace = -1;

static napi_value fail(napi_env env, const char *what, int err) {
  char message[200];
  snprintf(message, sizeof message, "%s: %s", what, strerror(err));
  napi_throw_error(env, strerrorname_np(err), message);
  return NULL;
}

static napi_value int_value(napi_env env, int n) {
  napi_value out;
  napi_create_int32(env, n, &out);
  return out;
}

static napi_value open_namespace(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  char path[4096];
  size_t length = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_string_utf8(env, argv[0], path, sizeof path, &length) != napi_ok || length >= sizeof path - 1) {
    napi_throw_type_error(env, NULL, "openNamespace(path: string)");
    return NULL;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(env, path, errno);
  /* Only a network namespace: setns would refuse another kind later, with a less telling error. */
  int type = ioctl(fd, NS_GET_NSTYPE);
  if (type != CLONE_NEWNET) {
    int err = type < 0 ? errno : EINVAL;
    close(fd);
    return fail(env, "not a network namespace", err);
  }
  return int_value(env, fd);
}

/* At most this many sockets per call: the dialer's stash is smaller; a bound keeps a bad argument from a descriptor flood. */
#define MAX_BATCH 64

static napi_value tcp_sockets_in(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t namespace_fd = -1, family = 0, wanted = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      napi_get_value_int32(env, argv[0], &namespace_fd) != napi_ok || napi_get_value_int32(env, argv[1], &family) != napi_ok ||
      napi_get_value_int32(env, argv[2], &wanted) != napi_ok || (family != 4 && family != 6) || wanted < 1 || wanted > MAX_BATCH) {
    napi_throw_type_error(env, NULL, "tcpSocketsIn(namespace: number, family: 4 | 6, count: 1..64)");
    return NULL;
  }
  if (own_namespace < 0) {
    own_namespace = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (own_namespace < 0) return fail(env, "this thread's own network namespace", errno);
  }
  if (setns(namespace_fd, CLONE_NEWNET) != 0) return fail(env, "entering the preset's network namespace", errno);
  int fds[MAX_BATCH];
  int made = 0, err = 0;
  for (; made < wanted; made++) {
    fds[made] = socket(family == 6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fds[made] < 0) {
      err = errno;
      break;
    }
  }
  if (setns(own_namespace, CLONE_NEWNET) != 0) {
    /* Left in the preset's namespace, this thread would open every later listener and connection of the agent
     * there, native ports included: stopping loudly is the only safe way out (the service manager starts it again). */
    fprintf(stderr, "cellport namespace-socket: cannot return to the agent's own network namespace: %s\n", strerror(errno));
    abort();
  }
  /* Out of descriptors part-way: what was made is returned (the caller asks again later); none at all is an error. */
  if (made == 0) return fail(env, "a socket in the preset's network namespace", err);
  napi_value out;
  if (napi_create_array_with_length(env, (size_t)made, &out) != napi_ok) {
    for (int i = 0; i < made; i++) close(fds[i]);
    napi_throw_error(env, NULL, "tcpSocketsIn: no array for the descriptors");
    return NULL;
  }
  for (int i = 0; i < made; i++) napi_set_element(env, out, (uint32_t)i, int_value(env, fds[i]));
  return out;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "openNamespace", NAPI_AUTO_LENGTH, open_namespace, NULL, &fn);
  napi_set_named_property(env, exports, "openNamespace", fn);
  napi_create_function(env, "tcpSocketsIn", NAPI_AUTO_LENGTH, tcp_sockets_in, NULL, &fn);
  napi_set_named_property(env, exports, "tcpSocketsIn", fn);
  return exports;
}
