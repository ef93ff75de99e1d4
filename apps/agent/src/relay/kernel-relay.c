/*
 * Cellport kernel relay (issue 31, item 2; docs/decisions/050-gateway-kernel-relay.md): joins two connected TCP
 * sockets and moves their bytes with splice() on a thread of its own, so a relayed byte is never copied into the
 * process, and JavaScript does no work per chunk. Built on the host on first use against the Node-API header that
 * comes with Node (as preset-socket.c is: decision 051).
 *
 *   start(onEnd)        once per thread that loads it: onEnd(id, aToB, bToA, error) is called on that thread when a
 *                       relay ends (error: '' for a clean end, else the errno's name)
 *   join(fdA, fdB)      relays both ways until each side has sent its FIN and it has reached the other (half-close
 *                       travels), or either fails; returns the relay's id (a socket the thread cannot watch ends it
 *                       through onEnd, with the reason). The sockets stay the caller's: they are never closed here,
 *                       so a descriptor is never reused under the relay (close them after onEnd)
 *   abort(id)           ends a relay now (both sockets shut down both ways); nothing when it has ended
 *   bytes(id)           [aToB, bToA] so far, or null when it has ended
 *   held(id), spareBytes()   for the tests: the bytes in a relay's pipes now; the bytes left in pooled pipes (0)
 *
 * Each direction reads into a pipe and writes from it (splice, SPLICE_F_MOVE: the socket's pages are handed on, not
 * copied). A pipe is held only while it has bytes in it: a direction that has nothing to read gives its pipe back to
 * a small pool, so ten thousand idle relays hold no pipes (each would be two descriptors).
 */
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define PIPE_BYTES (256 * 1024)
#define SPARE_PIPES 64
#define EVENTS 64

struct direction {
  int from, to;
  int pipe[2];           /* -1 while it holds none */
  size_t pending;        /* bytes in the pipe (atomic: held() reads it on the JS thread) */
  int eof, shut;
  uint64_t bytes;        /* written to `to`; read by bytes() on the JS thread */
};

struct relay {
  uint64_t id;
  int done;
  struct direction dir[2];  /* 0: a to b, 1: b to a */
  struct relay *next_joining;
};

struct ended { uint64_t id; uint64_t a_to_b, b_to_a; int error; };

/*
 * Relays by id: an id is its slot plus the slot's use count times SLOTS_MAX, so an id whose relay has ended never
 * names the next relay in that slot (JavaScript may still ask about it before it hears of the end).
 */
#define SLOTS_MAX (1u << 24)
struct slot { struct relay *relay; uint32_t uses; uint32_t next_free; };

/*
 * Only the relay thread touches the epoll set: join() queues a relay and wakes it. A relay can end the moment its first
 * socket is registered (both peers already sent their bytes and their FIN); when join() registered the sockets itself
 * the thread could end and free a relay before join() registered its second socket, which then stayed registered with
 * a freed relay: its next event ended whatever relay had taken that address, or freed memory twice.
 */
struct state {
  int epoll, wake;
  pthread_t thread;
  pthread_mutex_t lock;     /* the slots, a relay's done flag and its removal, the joining queue, stopping */
  struct relay *joining;    /* joined, not yet registered (the relay thread registers them) */
  int stopping;
  struct slot *slots;
  uint32_t slot_count, free_slot; /* free_slot: head of the free list, slot_count when none */
  napi_threadsafe_function on_end;
  napi_async_context async; /* onEnd is made a callback of, so the ticks and promises it starts run after it */
  napi_ref resource;
  uint32_t active;          /* JS thread only: the callback keeps the loop alive while relays run */
  int spare[SPARE_PIPES][2];
  int spares;               /* relay thread only */
};

static napi_value fail(napi_env env, const char *what, int err) {
  napi_throw_error(env, strerrorname_np(err), what);
  return NULL;
}

/* A pipe for a direction that has bytes to move: a spare one, or a new one as large as allowed. */
static int take_pipe(struct state *s, struct direction *d) {
  if (s->spares > 0) {
    s->spares--;
    d->pipe[0] = s->spare[s->spares][0];
    d->pipe[1] = s->spare[s->spares][1];
    return 0;
  }
  if (pipe2(d->pipe, O_NONBLOCK | O_CLOEXEC) != 0) return -1;
  fcntl(d->pipe[1], F_SETPIPE_SZ, PIPE_BYTES); /* best effort: the default 64 KiB works too */
  return 0;
}

/* An empty pipe back to the pool (or closed when the pool is full). */
static void give_pipe(struct state *s, struct direction *d) {
  if (d->pipe[0] < 0) return;
  if (d->pending == 0 && s->spares < SPARE_PIPES) {
    s->spare[s->spares][0] = d->pipe[0];
    s->spare[s->spares][1] = d->pipe[1];
    s->spares++;
  } else {
    close(d->pipe[0]);
    close(d->pipe[1]);
  }
  d->pipe[0] = d->pipe[1] = -1;
}

/* Moves what it can: 0 when it waits for readiness, 1 when its FIN has been passed on, -errno on an error. */
static int pump(struct state *s, struct direction *d) {
  for (;;) {
    if (d->pending > 0) {
      ssize_t n = splice(d->pipe[0], NULL, d->to, NULL, d->pending, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
      if (n > 0) {
        __atomic_sub_fetch(&d->pending, (size_t)n, __ATOMIC_RELAXED);
        __atomic_add_fetch(&d->bytes, (uint64_t)n, __ATOMIC_RELAXED);
        continue;
      }
      if (n < 0 && errno == EAGAIN) return 0;
      return n == 0 ? -EPIPE : -errno;
    }
    if (d->eof) {
      give_pipe(s, d);
      if (!d->shut) {
        if (shutdown(d->to, SHUT_WR) != 0 && errno != ENOTCONN) return -errno;
        d->shut = 1;
      }
      return 1;
    }
    if (d->pipe[0] < 0 && take_pipe(s, d) != 0) return -errno;
    ssize_t n = splice(d->from, NULL, d->pipe[1], NULL, PIPE_BYTES, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n > 0) {
      __atomic_store_n(&d->pending, (size_t)n, __ATOMIC_RELAXED);
      continue;
    }
    if (n == 0) {
      d->eof = 1;
      continue;
    }
    if (errno == EAGAIN) {
      give_pipe(s, d);
      return 0;
    }
    return -errno;
  }
}

/* The relay of `id`, or NULL when it has ended (or never was). Under the lock. */
static struct relay *find(struct state *s, uint64_t id) {
  uint32_t slot = (uint32_t)(id % SLOTS_MAX);
  if (slot >= s->slot_count || s->slots[slot].relay == NULL || s->slots[slot].uses != (uint32_t)(id / SLOTS_MAX)) return NULL;
  return s->slots[slot].relay;
}

/* A slot for `r`, its id set; -1 when there is no memory. Under the lock. */
static int take_slot(struct state *s, struct relay *r) {
  if (s->free_slot == s->slot_count) {
    uint32_t grown = s->slot_count ? s->slot_count * 2 : 1024;
    if (grown > SLOTS_MAX) return -1;
    struct slot *slots = realloc(s->slots, grown * sizeof *slots);
    if (slots == NULL) return -1;
    for (uint32_t i = s->slot_count; i < grown; i++) slots[i] = (struct slot){ NULL, 0, i + 1 };
    s->slots = slots;
    s->free_slot = s->slot_count;
    s->slot_count = grown;
  }
  uint32_t slot = s->free_slot;
  s->free_slot = s->slots[slot].next_free;
  s->slots[slot].relay = r;
  r->id = (uint64_t)s->slots[slot].uses * SLOTS_MAX + slot;
  return 0;
}

/* Under the lock. */
static void release_slot(struct state *s, uint64_t id) {
  uint32_t slot = (uint32_t)(id % SLOTS_MAX);
  s->slots[slot].relay = NULL;
  s->slots[slot].uses++;
  s->slots[slot].next_free = s->free_slot;
  s->free_slot = slot;
}

static void finish(struct state *s, struct relay *r, int error) {
  epoll_ctl(s->epoll, EPOLL_CTL_DEL, r->dir[0].from, NULL);
  epoll_ctl(s->epoll, EPOLL_CTL_DEL, r->dir[1].from, NULL);
  /* A pipe that still holds bytes of this relay is closed, never pooled: the next relay would send them on. */
  for (int i = 0; i < 2; i++) give_pipe(s, &r->dir[i]);
  pthread_mutex_lock(&s->lock);
  r->done = 1;
  release_slot(s, r->id);
  pthread_mutex_unlock(&s->lock);
  struct ended *e = malloc(sizeof *e);
  if (e) {
    e->id = r->id;
    e->a_to_b = r->dir[0].bytes;
    e->b_to_a = r->dir[1].bytes;
    e->error = error;
    if (napi_call_threadsafe_function(s->on_end, e, napi_tsfn_nonblocking) != napi_ok) free(e);
  }
}

/* One readiness event of a relay's socket: both directions move what they can. */
static void on_event(struct state *s, struct relay *r, uint32_t events) {
  int a = pump(s, &r->dir[0]);
  int b = a < 0 ? 0 : pump(s, &r->dir[1]);
  if (a < 0 || b < 0) finish(s, r, a < 0 ? -a : -b);
  else if (a == 1 && b == 1) finish(s, r, 0);
  /* Hung up (reset, or closed both ways) with a direction still open: nothing more will move. */
  else if (events & (EPOLLERR | EPOLLHUP)) finish(s, r, ECONNRESET);
}

/*
 * The wake descriptor fired: registers the relays join() queued (edge-triggered: a socket already readable is reported
 * at once, so bytes that came before the join move too). 1 when the thread is to stop instead.
 */
static int register_joined(struct state *s) {
  uint64_t count;
  /* Resets the counter; the queue is taken whatever read() says (EAGAIN: an earlier wake drained it already). */
  if (read(s->wake, &count, sizeof count) < 0) { /* nothing to reset */ }
  pthread_mutex_lock(&s->lock);
  struct relay *r = s->joining;
  int stopping = s->stopping;
  s->joining = NULL;
  pthread_mutex_unlock(&s->lock);
  if (stopping) return 1; /* the queued relays are still in their slots: cleanup() frees them */
  while (r != NULL) {
    struct relay *next = r->next_joining;
    struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, .data.ptr = r };
    if (epoll_ctl(s->epoll, EPOLL_CTL_ADD, r->dir[0].from, &ev) != 0 || epoll_ctl(s->epoll, EPOLL_CTL_ADD, r->dir[1].from, &ev) != 0) {
      /* An invalid descriptor or no kernel memory: the relay ends with the reason (no event of it can be pending). */
      finish(s, r, errno);
      free(r);
    }
    r = next;
  }
  return 0;
}

static void *run(void *arg) {
  struct state *s = arg;
  struct epoll_event events[EVENTS];
  struct relay *ended[EVENTS];
  for (int stop = 0; !stop;) {
    int n = epoll_wait(s->epoll, events, EVENTS, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    int count = 0;
    for (int i = 0; i < n; i++) {
      struct relay *r = events[i].data.ptr;
      if (r == NULL) stop = register_joined(s); /* the wake descriptor */
      else if (!r->done) {                      /* else ended by an earlier event of this batch */
        on_event(s, r, events[i].events);
        if (r->done) ended[count++] = r;
      }
    }
    /* Freed after the batch: a later event of it may name the same relay. */
    for (int i = 0; i < count; i++) free(ended[i]);
  }
  return NULL;
}

static void call_on_end(napi_env env, napi_value callback, void *context, void *data) {
  struct state *s = context;
  struct ended *e = data;
  if (env != NULL) {
    napi_value argv[4], global;
    napi_create_double(env, (double)e->id, &argv[0]);
    napi_create_double(env, (double)e->a_to_b, &argv[1]);
    napi_create_double(env, (double)e->b_to_a, &argv[2]);
    const char *name = e->error ? strerrorname_np(e->error) : "";
    napi_create_string_utf8(env, name ? name : "EIO", NAPI_AUTO_LENGTH, &argv[3]);
    napi_get_global(env, &global); /* napi_make_callback takes an object as `this` */
    if (--s->active == 0) napi_unref_threadsafe_function(env, s->on_end);
    /* napi_make_callback, Node-API's call for the end of asynchronous work: the process.nextTick queue and the promise
       jobs onEnd starts (a socket's 'close', an awaiting caller) run as it returns, in the callback's async context. */
    napi_make_callback(env, s->async, global, callback, 4, argv, NULL);
  }
  free(e);
}

static void cleanup(void *arg) {
  struct state *s = arg;
  uint64_t one = 1;
  pthread_mutex_lock(&s->lock);
  s->stopping = 1;
  pthread_mutex_unlock(&s->lock);
  if (write(s->wake, &one, sizeof one) == sizeof one) pthread_join(s->thread, NULL);
  /* Relays still running when the environment goes: their sockets close with it. */
  for (uint32_t i = 0; i < s->slot_count; i++) {
    struct relay *r = s->slots[i].relay;
    if (r == NULL) continue;
    for (int j = 0; j < 2; j++) if (r->dir[j].pipe[0] >= 0) { close(r->dir[j].pipe[0]); close(r->dir[j].pipe[1]); }
    free(r);
  }
  free(s->slots);
  for (int i = 0; i < s->spares; i++) { close(s->spare[i][0]); close(s->spare[i][1]); }
  close(s->epoll);
  close(s->wake);
  napi_release_threadsafe_function(s->on_end, napi_tsfn_abort);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

static struct state *state_of(napi_env env) {
  struct state *s = NULL;
  napi_get_instance_data(env, (void **)&s);
  return s;
}

static napi_value start(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], name;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (state_of(env) != NULL) return NULL;
  struct state *s = calloc(1, sizeof *s);
  if (s == NULL) return fail(env, "kernel relay: out of memory", ENOMEM);
  s->epoll = epoll_create1(EPOLL_CLOEXEC);
  s->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (s->epoll < 0 || s->wake < 0) {
    int err = errno;
    if (s->epoll >= 0) close(s->epoll);
    if (s->wake >= 0) close(s->wake);
    free(s);
    return fail(env, "kernel relay: epoll", err);
  }
  struct epoll_event wake = { .events = EPOLLIN, .data.ptr = NULL };
  epoll_ctl(s->epoll, EPOLL_CTL_ADD, s->wake, &wake);
  pthread_mutex_init(&s->lock, NULL);
  napi_create_string_utf8(env, "cellport kernel relay", NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, argv[0], NULL, name, 0, 1, NULL, NULL, s, call_on_end, &s->on_end) != napi_ok) {
    close(s->epoll);
    close(s->wake);
    free(s);
    return fail(env, "kernel relay: callback", EINVAL);
  }
  napi_unref_threadsafe_function(env, s->on_end);
  napi_value resource;
  napi_create_object(env, &resource);
  napi_create_reference(env, resource, 1, &s->resource); /* kept alive as long as the async context it names */
  napi_async_init(env, resource, name, &s->async);
  int err = pthread_create(&s->thread, NULL, run, s);
  if (err != 0) {
    napi_release_threadsafe_function(s->on_end, napi_tsfn_abort);
    close(s->epoll);
    close(s->wake);
    free(s);
    return fail(env, "kernel relay: thread", err);
  }
  napi_set_instance_data(env, s, NULL, NULL);
  napi_add_env_cleanup_hook(env, cleanup, s);
  return NULL;
}

static napi_value join(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], out;
  int32_t fd_a = -1, fd_b = -1;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  struct state *s = state_of(env);
  if (s == NULL) return fail(env, "kernel relay: start() first", EINVAL);
  if (argc < 2 || napi_get_value_int32(env, argv[0], &fd_a) != napi_ok || napi_get_value_int32(env, argv[1], &fd_b) != napi_ok
    || fd_a < 0 || fd_b < 0 || fd_a == fd_b) return fail(env, "kernel relay: join(fdA, fdB) takes two descriptors", EINVAL);
  struct relay *r = calloc(1, sizeof *r);
  if (r == NULL) return fail(env, "kernel relay: out of memory", ENOMEM);
  r->dir[0] = (struct direction){ .from = fd_a, .to = fd_b, .pipe = { -1, -1 } };
  r->dir[1] = (struct direction){ .from = fd_b, .to = fd_a, .pipe = { -1, -1 } };
  pthread_mutex_lock(&s->lock);
  int slotted = take_slot(s, r);
  pthread_mutex_unlock(&s->lock);
  if (slotted != 0) {
    free(r);
    return fail(env, "kernel relay: out of memory", ENOMEM);
  }
  if (s->active++ == 0) napi_ref_threadsafe_function(env, s->on_end);
  /* Read before the relay thread has it: it may end and free the relay before join() returns. */
  napi_create_double(env, (double)r->id, &out);
  uint64_t one = 1;
  pthread_mutex_lock(&s->lock);
  r->next_joining = s->joining;
  s->joining = r;
  pthread_mutex_unlock(&s->lock);
  /* Cannot fail short of a counter at its maximum, which a thread that drains it at every wake never reaches. */
  if (write(s->wake, &one, sizeof one) < 0) { /* nothing better to do: the next join wakes it */ }
  return out;
}

static uint64_t id_arg(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  double id = -1;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc >= 1) napi_get_value_double(env, argv[0], &id);
  return id >= 0 ? (uint64_t)id : UINT64_MAX;
}

static napi_value abort_relay(napi_env env, napi_callback_info info) {
  uint64_t id = id_arg(env, info);
  struct state *s = state_of(env);
  if (s == NULL) return NULL;
  pthread_mutex_lock(&s->lock);
  struct relay *r = find(s, id);
  /* Shut down, not closed: the relay thread sees both ends hang up and ends it; the descriptors stay valid. */
  if (r != NULL && !r->done) {
    shutdown(r->dir[0].from, SHUT_RDWR);
    shutdown(r->dir[1].from, SHUT_RDWR);
  }
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

/*
 * One counter of a running relay, [a to b, b to a], or null when it has ended: the bytes written on (`bytes`), or the
 * bytes waiting in its pipes now (`held`, for the tests).
 */
static napi_value per_direction(napi_env env, napi_callback_info info, int waiting) {
  uint64_t id = id_arg(env, info);
  struct state *s = state_of(env);
  napi_value out, n;
  napi_get_null(env, &out);
  if (s == NULL) return out;
  pthread_mutex_lock(&s->lock);
  struct relay *r = find(s, id);
  if (r != NULL) {
    napi_create_array_with_length(env, 2, &out);
    for (uint32_t i = 0; i < 2; i++) {
      struct direction *d = &r->dir[i];
      double count = waiting ? (double)__atomic_load_n(&d->pending, __ATOMIC_RELAXED) : (double)__atomic_load_n(&d->bytes, __ATOMIC_RELAXED);
      napi_create_double(env, count, &n);
      napi_set_element(env, out, i, n);
    }
  }
  pthread_mutex_unlock(&s->lock);
  return out;
}

static napi_value bytes(napi_env env, napi_callback_info info) {
  return per_direction(env, info, 0);
}

static napi_value held(napi_env env, napi_callback_info info) {
  return per_direction(env, info, 1);
}

/* For the tests: the bytes left in pooled pipes (always 0: a pipe with bytes is closed, never pooled). */
static napi_value spare_bytes(napi_env env, napi_callback_info info) {
  (void)info;
  struct state *s = state_of(env);
  int64_t total = 0;
  if (s != NULL) {
    /* The pool is the relay thread's; a quiet moment (no relay running) is when a test asks. */
    for (int i = 0; i < __atomic_load_n(&s->spares, __ATOMIC_ACQUIRE); i++) {
      int queued = 0;
      if (ioctl(s->spare[i][0], FIONREAD, &queued) == 0) total += queued;
    }
  }
  napi_value out;
  napi_create_int64(env, total, &out);
  return out;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    { "start", NULL, start, NULL, NULL, NULL, napi_default, NULL },
    { "join", NULL, join, NULL, NULL, NULL, napi_default, NULL },
    { "abort", NULL, abort_relay, NULL, NULL, NULL, napi_default, NULL },
    { "bytes", NULL, bytes, NULL, NULL, NULL, napi_default, NULL },
    { "held", NULL, held, NULL, NULL, NULL, napi_default, NULL },
    { "spareBytes", NULL, spare_bytes, NULL, NULL, NULL, napi_default, NULL },
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
