import type { Socket } from 'node:net';
import { ChunkedReader } from './chunked-body.js';
import { destroySelf, UpstreamError } from './connection.js';
import type { ClientConnection, UpstreamFailure } from './connection.js';
import { MAX_FAILURES_PER_CONNECTION } from './auth-guard.js';
import {
  authorize, BLOCKED, FAILURE_MESSAGES, FAILURE_STATUS, failureOf, FRAMING_MESSAGE, MALFORMED_REQUEST, MESSAGES,
  hostField, parseAbsolute, rawResponse, refusal,
} from './http-answers.js';
import { FRAMING, hasBareLineFeed, headEnd, INCOMPLETE, parseRequestHead, parseResponseHead, TOO_LARGE } from './http-message-head.js';
import type { RequestHead } from './http-message-head.js';
import type { ProxyLimits } from './types.js';
import { charge, isThrottled, limitFlow } from './port-rate-limit.js';
import type { UpstreamPool } from './upstream-pool.js';

// Plain HTTP/1.1 forwarding (absolute-URI requests), our own instead of Node's HTTP server and client (issue 31 item 1,
// decision 048). One Forwarding per client connection reads its requests one after another (pipelined ones wait in
// `pending`), sends each to the target on a kept-alive connection of the port's pool (upstream-pool.ts), and passes
// the response back. Bodies go on as they came, framed by their Content-Length or their chunks (chunked-body.ts
// finds the end), never decoded and re-encoded; only heads are read and rewritten (http-message-head.ts) to drop
// hop-by-hop headers and credentials. Handlers are module-level and find their Forwarding through a symbol on the
// socket, as relay.ts and splice.ts do: a request costs no closures.

/** Reading a request head (between requests when nothing is pending). */
const HEAD = 0;
/** A head read; its target being resolved and a connection taken or dialed. */
const RESOLVING = 1;
/** Sending the request body. */
const BODY = 2;
/** The request is sent; waiting for the response to end. */
const SENT = 3;
/** Closing, or handed to the CONNECT path. */
const GONE = 4;

/** The response's head is still coming; then its body by length, by chunks, until the target closes; then done. */
const R_HEAD = 0;
const R_LENGTH = 1;
const R_CHUNKED = 2;
const R_CLOSE = 3;
const R_DONE = 4;

/** Client bytes held while a request is in flight (pipelined requests, an early body); beyond them reading pauses. */
const MAX_PENDING = 64 * 1024;

const CONTINUE = Buffer.from('HTTP/1.1 100 Continue\r\n\r\n', 'latin1');

const kFwd = Symbol('cellport.forwarding');
type Client = Socket & { [kFwd]?: Forwarding };
type Upstream = Socket & { [kFwd]?: Forwarding | null; [kTimeoutMs]?: number; [kLimits]?: ProxyLimits };
const kTimeoutMs = Symbol('cellport.timeout-ms');
/** The modem's limits, on a target connection (its timer's handler needs them while it idles in the pool). */
const kLimits = Symbol('cellport.limits');

/** A CONNECT read after other requests on a kept connection: the tunnel path takes the socket (http-proxy.ts). */
export type ConnectHandler = (conn: ClientConnection, authority: string, authorization: string | undefined, head: Buffer) => void;

/** Every connection handed to plain forwarding, for closeIdle (a drain closes those between requests). */
export type ForwardingSet = Set<Forwarding>;

export class Forwarding {
  phase = HEAD;
  /** Client bytes read but not yet used (the rest of a head, pipelined requests). */
  pending: Buffer | null = null;
  /** Date.now() when the head being read started (0: none started). */
  headStarted = 0;
  /** The client socket's timeout now (set only when it changes). */
  timeoutMs: number;
  /** Inside readHeads: an exchange that ends at once (a refusal) lets its loop read the next head. */
  reading = false;

  // The exchange in flight.
  head: RequestHead | null = null;
  host = '';
  port = 0;
  address = '';
  /** The head sent to the target (kept to send again on a fresh connection when a kept one was closed under it). */
  upstreamHead = '';
  upstream: Upstream | null = null;
  pool: UpstreamPool | null = null;
  reused = false;
  retried = false;
  upstreamError: Error | null = null;
  /** Body bytes of the request still to send (by Content-Length), or its chunk reader. */
  requestLeft = 0;
  requestChunks: ChunkedReader | null = null;
  requestDone = false;
  /** The upstream connection gets "Connection: close": a body on a method that carries none (see BODYLESS_METHODS). */
  closeUpstream = false;
  response = R_HEAD;
  responseHead: Buffer | null = null;
  responseLeft = 0;
  responseChunks: ChunkedReader | null = null;
  /** Chunks decoded for an HTTP/1.0 client, which cannot read chunked framing. */
  decode = false;
  /** Some of the response reached the client (a failure now can only cut the connection). */
  responded = false;
  reuseUpstream = false;
  /** The client connection closes after this exchange. */
  closeAfter = false;

  constructor(readonly socket: Client, readonly conn: ClientConnection, readonly onConnect: ConnectHandler,
    readonly all: ForwardingSet) {
    this.timeoutMs = conn.core.limits.handshakeTimeoutMs;
  }

  readonly resolved = (address: string): void => sendRequest(this, address);
  readonly unresolved = (err: unknown): void => {
    if (this.phase !== RESOLVING) return;
    const failure = err instanceof UpstreamError ? err.failure : 'failed';
    this.conn.core.counters.upstreamFailed(failure);
    answer(this, FAILURE_STATUS[failure], FAILURE_MESSAGES[failure], !this.requestDone);
  };
}

/**
 * Methods whose requests carry no body in ordinary use. A body on one is still forwarded, framed explicitly, but its
 * upstream connection is closed after the exchange rather than pooled: a target that ignores bodies on these methods
 * would read the body as a request of its own, and that connection must not serve another request.
 */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);

/** Takes a connection that is not a CONNECT from the front end, with the bytes it read (the socket paused). */
export function startForwarding(socket: Socket, conn: ClientConnection, read: Buffer, onConnect: ConnectHandler,
  all: ForwardingSet): void {
  const f = new Forwarding(socket, conn, onConnect, all);
  (socket as Client)[kFwd] = f;
  all.add(f);
  socket.removeListener('timeout', destroySelf);
  socket.on('timeout', onClientTimeout);
  socket.on('data', onClientData);
  socket.on('drain', onClientDrain);
  socket.on('end', onClientEnd);
  socket.on('close', onClientClose);
  f.headStarted = conn.acceptedAt;
  f.pending = read;
  readHeads(f);
  if (f.phase !== GONE) socket.resume();
}

/** Closes the connections that sit between requests (a drain: they are not in flight). */
export function closeIdle(all: ForwardingSet): void {
  for (const f of all) if (f.phase === HEAD && f.pending === null) f.socket.destroy();
}

function setClientTimeout(f: Forwarding, ms: number): void {
  if (f.timeoutMs === ms) return;
  f.timeoutMs = ms;
  f.socket.setTimeout(ms);
}

function setUpstreamTimeout(up: Upstream, ms: number): void {
  if (up[kTimeoutMs] === ms) return;
  up[kTimeoutMs] = ms;
  up.setTimeout(ms);
}

function append(f: Forwarding, chunk: Buffer): Buffer {
  const buf = f.pending === null ? chunk : Buffer.concat([f.pending, chunk]);
  f.pending = buf;
  return buf;
}

function onClientData(this: Client, chunk: Buffer): void {
  const f = this[kFwd]!;
  switch (f.phase) {
    case HEAD:
      append(f, chunk);
      readHeads(f);
      return;
    case BODY:
      sendBody(f, chunk);
      return;
    case GONE:
      return;
    default:
      // A pipelined request or an early body: held until the exchange in flight is done.
      if (append(f, chunk).length > MAX_PENDING) this.pause();
  }
}

function onClientDrain(this: Client): void {
  const f = this[kFwd]!;
  const up = f.upstream;
  if (up !== null && f.response !== R_HEAD && f.response !== R_DONE && !isThrottled(up)) up.resume();
}

/** The client sent its last byte: between requests it is gone; within one, the answer still goes out, then close. */
function onClientEnd(this: Client): void {
  const f = this[kFwd]!;
  if (f.phase === HEAD || f.phase === BODY) this.destroy();
  else f.closeAfter = true;
}

/**
 * The client's timer runs at the kept connection's wait (or handshakeTimeoutMs while a head trickles in) all along, so
 * a request costs no timer changes: a quiet spell within an exchange (a stalled upload or response) extends it once to
 * idleTimeoutMs, the limit Node's server had, and the next request starts from the kept connection's wait again.
 */
function onClientTimeout(this: Client): void {
  const f = this[kFwd]!;
  const { idleTimeoutMs } = f.conn.core.limits;
  if (f.phase !== HEAD && f.phase !== GONE && f.timeoutMs !== idleTimeoutMs) setClientTimeout(f, idleTimeoutMs);
  else this.destroy();
}

function onClientClose(this: Client): void {
  const f = this[kFwd]!;
  f.all.delete(f);
  f.phase = GONE;
  dropUpstream(f);
}

/** Reads the pending heads while no exchange is in flight: starts each request, or answers its problem. */
function readHeads(f: Forwarding): void {
  f.reading = true;
  try {
    while (f.phase === HEAD && f.pending !== null) {
      const buf = f.pending;
      const end = headEnd(buf);
      if (end === INCOMPLETE) {
        if (hasBareLineFeed(buf)) {
          refuse(f, 400, MALFORMED_REQUEST);
          return;
        }
        // Slow (slowloris) heads: handshakeTimeoutMs from the head's first byte, however it trickles.
        if (f.headStarted === 0) f.headStarted = Date.now();
        else if (Date.now() - f.headStarted > f.conn.core.limits.handshakeTimeoutMs) f.socket.destroy();
        setClientTimeout(f, f.conn.core.limits.handshakeTimeoutMs);
        return;
      }
      f.headStarted = 0;
      if (end === TOO_LARGE) {
        refuse(f, 431, MESSAGES[431]!);
        return;
      }
      const head = parseRequestHead(buf, end);
      f.pending = end === buf.length ? null : buf.subarray(end);
      if (typeof head === 'number') {
        refuse(f, head === 431 ? 431 : 400, head === FRAMING ? FRAMING_MESSAGE : head === 431 ? MESSAGES[431]! : MALFORMED_REQUEST);
        return;
      }
      startRequest(f, head);
    }
  } finally {
    f.reading = false;
  }
}

/** A head the proxy cannot read on from: answered, and the connection closed (what follows is not requests). */
function refuse(f: Forwarding, status: number, text: string): void {
  f.conn.core.counters.refuse('bad_request');
  f.phase = GONE;
  f.pending = null;
  f.socket.end(rawResponse(status, text));
  f.socket.resume(); // reading on sees the client's FIN, after which the socket closes
}

function startRequest(f: Forwarding, head: RequestHead): void {
  const conn = f.conn;
  if (head.method === 'CONNECT') {
    handToConnect(f, head);
    return;
  }
  const hasBody = head.chunked || head.contentLength > 0;
  f.head = head;
  f.closeAfter = !head.keepAlive;
  // An answer before the body is read cannot keep the connection: the body's bytes would be read as a request.
  f.requestDone = !hasBody;
  const target = parseAbsolute(head.target);
  if (target === null) {
    conn.core.counters.refuse('bad_request');
    answer(f, 400, MESSAGES[400]!, hasBody);
    return;
  }
  const status = authorize(conn.core, conn, head.authorization);
  if (status !== 0) {
    // A blocked client, or one that offered wrong credentials a few times on this connection, must reconnect.
    const close = hasBody || status === BLOCKED || conn.authFailures >= MAX_FAILURES_PER_CONNECTION;
    answer(f, status === BLOCKED ? 429 : status, refusal(conn, status), close);
    return;
  }
  f.host = target[0];
  f.port = target[1];
  f.closeUpstream = hasBody && BODYLESS_METHODS.has(head.method);
  f.upstreamHead = `${head.method} ${target[2]} HTTP/1.1\r\n${head.lines}` +
    (head.hasHost ? '' : `Host: ${hostField(f.host, f.port)}\r\n`) +
    (head.chunked ? 'Transfer-Encoding: chunked\r\n' : '') + (f.closeUpstream ? 'Connection: close\r\n' : '') + '\r\n';
  f.requestLeft = head.chunked ? 0 : Math.max(head.contentLength, 0);
  f.requestChunks = head.chunked ? new ChunkedReader() : null;
  f.phase = RESOLVING;
  if (head.expectContinue && hasBody) f.socket.write(CONTINUE);
  conn.core.resolveTarget(conn, f.host, f.port).then(f.resolved, f.unresolved);
}

/** A CONNECT after other requests: the socket leaves plain forwarding for the tunnel path, its bytes read so far too. */
function handToConnect(f: Forwarding, head: RequestHead): void {
  const socket = f.socket;
  f.phase = GONE;
  f.all.delete(f);
  socket.removeListener('data', onClientData);
  socket.removeListener('drain', onClientDrain);
  socket.removeListener('end', onClientEnd);
  socket.removeListener('close', onClientClose);
  socket.removeListener('timeout', onClientTimeout);
  socket.pause();
  socket.setTimeout(f.conn.core.limits.handshakeTimeoutMs);
  socket.on('timeout', destroySelf);
  const rest = f.pending ?? Buffer.alloc(0);
  f.pending = null;
  f.onConnect(f.conn, head.target, head.authorization, rest);
}

/** The target's address is known: a kept connection to it, or a new one, carries the request. */
function sendRequest(f: Forwarding, address: string): void {
  if (f.phase !== RESOLVING) return;
  const core = f.conn.core;
  f.address = address;
  f.pool = core.forwardPool(f.conn.portId!);
  const kept = f.pool.take(address, f.port);
  f.reused = kept !== null;
  if (kept !== null) useUpstream(f, kept);
  else dial(f);
}

function dial(f: Forwarding): void {
  f.pool!.dial(f.address, f.port, (err, socket) => {
    if (err !== null || socket === undefined) {
      if (f.phase !== RESOLVING) return;
      const failure: UpstreamFailure = err instanceof UpstreamError ? err.failure : failureOf(err as NodeJS.ErrnoException);
      f.conn.core.counters.upstreamFailed(failure);
      answer(f, FAILURE_STATUS[failure], FAILURE_MESSAGES[failure], !f.requestDone);
      return;
    }
    if (f.phase !== RESOLVING) {
      socket.destroy();
      return;
    }
    const up = socket as Upstream;
    up[kLimits] = f.conn.core.limits;
    up.setNoDelay(true);
    up.on('data', onUpstreamData);
    up.on('end', onUpstreamEnd);
    up.on('close', onUpstreamClose);
    up.on('error', onUpstreamError);
    up.on('timeout', onUpstreamTimeout);
    up.on('drain', onUpstreamDrain);
    f.pool!.adopt(up);
    useUpstream(f, up);
  });
}

function useUpstream(f: Forwarding, up: Upstream): void {
  const client = f.socket;
  f.upstream = up;
  f.upstreamError = null;
  up[kFwd] = f;
  f.response = R_HEAD;
  f.responded = false;
  setUpstreamTimeout(up, f.conn.core.limits.connectTimeoutMs);
  limitFlow(up, client, client, false);
  limitFlow(client, up, client, true);
  up.write(f.upstreamHead, 'latin1');
  if (f.requestDone) {
    f.phase = SENT;
    return;
  }
  f.phase = BODY;
  const held = f.pending;
  f.pending = null;
  if (held !== null) sendBody(f, held);
  if (f.phase === BODY && !isThrottled(client)) client.resume();
}

/** Request body bytes from the client: as many as the body has, on to the target; the rest waits as pending. */
function sendBody(f: Forwarding, chunk: Buffer): void {
  const up = f.upstream!;
  let end: number;
  if (f.requestChunks !== null) {
    end = f.requestChunks.read(chunk, 0);
    if (end < 0) {
      // Not chunked framing after all: nothing after it can be read as requests, and the target has half a body.
      f.conn.core.counters.refuse('bad_request');
      f.requestDone = false;
      if (!f.responded) answer(f, 400, FRAMING_MESSAGE, true);
      else f.socket.destroy();
      return;
    }
    if (f.requestChunks.done) f.requestDone = true;
  } else {
    end = Math.min(chunk.length, f.requestLeft);
    f.requestLeft -= end;
    if (f.requestLeft === 0) f.requestDone = true;
  }
  const body = end === chunk.length ? chunk : chunk.subarray(0, end);
  if (end < chunk.length) f.pending = f.pending === null ? chunk.subarray(end) : Buffer.concat([f.pending, chunk.subarray(end)]);
  if (body.length > 0) {
    if (!up.write(body)) f.socket.pause();
    charge(f.socket, body.length);
  }
  if (f.requestDone) {
    f.phase = SENT;
    if (f.response === R_DONE) finishExchange(f);
  }
}

function onUpstreamDrain(this: Upstream): void {
  const f = this[kFwd];
  if (f && f.phase === BODY && !isThrottled(f.socket)) f.socket.resume();
}

function onUpstreamError(this: Upstream, err: Error): void {
  const f = this[kFwd];
  if (f) f.upstreamError = err;
}

/**
 * A target connection's timer runs at connectTimeoutMs all along (no timer change per request): until the target
 * starts answering that is the limit (504); a quiet spell later in the response, or in the pool, extends it once to
 * idleTimeoutMs, and a connection taken from the pool after such a spell is set back.
 */
function onUpstreamTimeout(this: Upstream): void {
  const f = this[kFwd];
  if (f && !f.responded) {
    f.conn.core.counters.upstreamFailed('timeout');
    answer(f, 504, FAILURE_MESSAGES.timeout, !f.requestDone); // closes this connection too
    return;
  }
  const { idleTimeoutMs, connectTimeoutMs } = this[kLimits]!;
  if (this[kTimeoutMs] === connectTimeoutMs && idleTimeoutMs > connectTimeoutMs) setUpstreamTimeout(this, idleTimeoutMs);
  else this.destroy();
}

function onUpstreamEnd(this: Upstream): void {
  const f = this[kFwd];
  if (f && f.response === R_CLOSE) {
    // The body that runs until the target closes has ended.
    f.reuseUpstream = false;
    responseDone(f);
  }
}

function onUpstreamClose(this: Upstream): void {
  const f = this[kFwd];
  if (!f || f.upstream !== this) return;
  dropUpstream(f);
  if (f.response === R_DONE) return;
  if (!f.responded) {
    // A kept connection the target had closed just as it was taken: once more on a new one, if nothing is lost.
    if (f.reused && !f.retried && f.head !== null && f.head.contentLength <= 0 && !f.head.chunked && f.phase === SENT) {
      f.retried = true;
      f.reused = false;
      f.phase = RESOLVING;
      dial(f);
      return;
    }
    const err = f.upstreamError;
    const failure: UpstreamFailure = err instanceof UpstreamError ? err.failure : err ? failureOf(err as NodeJS.ErrnoException) : 'failed';
    f.conn.core.counters.upstreamFailed(failure);
    answer(f, FAILURE_STATUS[failure], FAILURE_MESSAGES[failure], !f.requestDone);
    return;
  }
  f.socket.destroy(); // the response was cut short: so is the client's connection
}

/** Takes the exchange's upstream connection out of it (closed or closing), back to nobody. */
function dropUpstream(f: Forwarding): void {
  const up = f.upstream;
  if (up === null) return;
  f.upstream = null;
  up[kFwd] = null;
  f.pool?.release(up);
  up.destroy();
}

function onUpstreamData(this: Upstream, chunk: Buffer): void {
  const f = this[kFwd];
  if (!f || f.upstream !== this) {
    this.destroy(); // bytes from a kept connection between exchanges: it is not speaking HTTP with us
    return;
  }
  if (f.response === R_HEAD) readResponseHead(f, chunk);
  else passBody(f, chunk, 0, null);
}

function readResponseHead(f: Forwarding, chunk: Buffer): void {
  let buf = f.responseHead === null ? chunk : Buffer.concat([f.responseHead, chunk]);
  f.responseHead = null;
  for (;;) {
    const end = headEnd(buf);
    if (end === INCOMPLETE) {
      f.responseHead = buf;
      return;
    }
    const head = end === TOO_LARGE ? null : parseResponseHead(buf, end);
    if (head === null || head.status === 101) {
      badGateway(f);
      return;
    }
    if (head.status < 200) {
      // 100 Continue and other interim answers are for this hop (the client had its 100 from us).
      if (end === buf.length) return;
      buf = buf.subarray(end);
      continue;
    }
    const request = f.head!;
    let mode = R_LENGTH;
    if (request.method === 'HEAD' || head.status === 204 || head.status === 304) f.responseLeft = 0;
    else if (head.chunked) mode = R_CHUNKED;
    else if (head.contentLength >= 0) f.responseLeft = head.contentLength;
    else mode = R_CLOSE;
    f.reuseUpstream = head.keepAlive && !f.closeUpstream && mode !== R_CLOSE;
    const clientOld = request.minor === 0;
    f.decode = clientOld && mode === R_CHUNKED;
    if (mode === R_CLOSE || f.decode) f.closeAfter = true;
    let out = `HTTP/1.1 ${head.status} ${head.reason}\r\n${head.lines}`;
    if (head.transferEncoding !== undefined && !f.decode) out += `Transfer-Encoding: ${head.transferEncoding}\r\n`;
    out += f.closeAfter ? 'Connection: close\r\n\r\n' : clientOld ? 'Connection: keep-alive\r\n\r\n' : '\r\n';
    f.response = mode;
    f.responseChunks = mode === R_CHUNKED ? new ChunkedReader() : null;
    f.responded = true;
    passBody(f, buf, end, out);
    return;
  }
}

/** The target sent no HTTP/1.x response head: 502, and the connection to it is not used again. */
function badGateway(f: Forwarding): void {
  f.conn.core.counters.upstreamFailed('failed');
  dropUpstream(f);
  answer(f, 502, FAILURE_MESSAGES.failed, !f.requestDone);
}

/** Response body bytes from `from` on to the client (after `head`, the response head, when it is still to go). */
function passBody(f: Forwarding, buf: Buffer, from: number, head: string | null): void {
  const up = f.upstream!;
  let end = buf.length;
  let parts: Buffer[] | null = null;
  switch (f.response) {
    case R_LENGTH:
      end = Math.min(buf.length, from + f.responseLeft);
      f.responseLeft -= end - from;
      if (f.responseLeft === 0) f.response = R_DONE;
      break;
    case R_CHUNKED:
      if (f.decode) parts = [];
      end = f.responseChunks!.read(buf, from, parts);
      if (end < 0) {
        f.socket.destroy(); // a broken chunked body: the client cannot know where it ends either
        return;
      }
      if (f.responseChunks!.done) f.response = R_DONE;
      break;
    default: // R_CLOSE: everything until the target closes
  }
  let out: Buffer | string | null;
  let n: number;
  if (parts !== null) {
    out = head === null ? Buffer.concat(parts) : Buffer.concat([Buffer.from(head, 'latin1'), ...parts]);
    n = end - from;
  } else if (head === null) {
    out = from === 0 && end === buf.length ? buf : buf.subarray(from, end);
    n = out.length;
  } else if (end === from) {
    out = head;
    n = 0;
  } else {
    // The head and the body's first bytes in one write (one syscall for a small response).
    const headLength = Buffer.byteLength(head, 'latin1');
    const joined = Buffer.allocUnsafe(headLength + end - from);
    joined.write(head, 0, 'latin1');
    buf.copy(joined, headLength, from, end);
    out = joined;
    n = end - from;
  }
  if ((typeof out === 'string' || out.length > 0) && !f.socket.write(out)) up.pause();
  if (n > 0) charge(up, n);
  if (f.response === R_DONE) {
    if (end < buf.length) f.reuseUpstream = false; // bytes past the response: this connection is out of step
    responseDone(f);
  }
}

function responseDone(f: Forwarding): void {
  f.response = R_DONE;
  if (f.requestDone) {
    finishExchange(f);
    return;
  }
  // The target answered before the request body was all sent (a refusal, an error): that connection and the client's
  // cannot be used again, for the rest of the body would be read as requests.
  f.reuseUpstream = false;
  f.closeAfter = true;
  finishExchange(f);
}

/** The exchange is over: the target connection back to the pool (or closed), the client on to its next request. */
function finishExchange(f: Forwarding): void {
  const up = f.upstream;
  if (up !== null) {
    f.upstream = null;
    up[kFwd] = null;
    if (f.reuseUpstream && f.requestDone) {
      limitFlow(up, f.socket, null, false);
      if (up.isPaused()) up.resume();
      f.pool!.give(f.address, f.port, up);
    } else {
      f.pool!.release(up);
      up.destroy();
    }
  }
  endExchange(f, f.closeAfter || !f.requestDone);
}

/** Answers the request in flight with the proxy's own response (the target's never started). */
function answer(f: Forwarding, status: number, text: string, close: boolean): void {
  const closing = close || f.closeAfter;
  if (f.phase === GONE) return;
  f.socket.write(rawResponse(status, text, closing));
  dropUpstream(f);
  endExchange(f, closing);
}

function endExchange(f: Forwarding, close: boolean): void {
  f.head = null;
  f.requestChunks = null;
  f.responseChunks = null;
  f.responseHead = null;
  f.retried = false;
  const socket = f.socket;
  if (close) {
    f.phase = GONE;
    f.pending = null;
    if (typeof socket.destroySoon === 'function') socket.destroySoon();
    else socket.end();
    return;
  }
  f.phase = HEAD;
  const { idleTimeoutMs } = f.conn.core.limits;
  setClientTimeout(f, Math.min(idleTimeoutMs, 30_000)); // a kept connection waits this long for its next request
  if (f.pending !== null && !f.reading) readHeads(f);
  if (f.phase === HEAD && socket.isPaused() && !isThrottled(socket)) socket.resume();
}
