import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { INCOMPLETE, NOT_CONNECT, readConnectHead } from './connect-head.js';
import { destroySelf, kConn, UpstreamError } from './connection.js';
import type { ClientConnection, ProxyCore, TrackedSocket } from './connection.js';
import {
  authorize, BLOCKED, FAILURE_MESSAGES, FAILURE_STATUS, MESSAGES, rawResponse, refusal, splitHostPort,
} from './http-answers.js';
import { closeIdle, startForwarding } from './http-forwarder.js';
import type { ForwardingSet } from './http-forwarder.js';

// The HTTP proxy listener: CONNECT tunnels and absolute-URI forwarding of http:// requests, with no Node HTTP server
// or client (issue 31 item 1, decision 048). A connection that opens with CONNECT is read here (connect-head.ts):
// its tunnel starts at once. Any other is handed to plain forwarding (http-forwarder.ts) with the bytes read so far;
// it reads the requests itself (a CONNECT after other requests on a keep-alive connection comes back here), closes
// slow (slowloris) heads after handshakeTimeoutMs, answers oversized ones 431 and malformed ones 400, and closes them.

/** Answers a CONNECT that gets no tunnel; reading on sees the client's FIN, after which the socket closes. */
function refuseRaw(socket: Socket, response: Buffer): void {
  socket.end(response);
  socket.resume();
}

/** A CONNECT request read (the socket paused, its handshake timeout set): the tunnel, or the answer why not. */
function connectRequest(conn: ClientConnection, authority: string, authorization: string | undefined, head: Buffer): void {
  const core = conn.core;
  const socket = conn.socket;
  const status = authorize(core, conn, authorization);
  if (status !== 0) {
    refuseRaw(socket, rawResponse(status === BLOCKED ? 429 : status, refusal(conn, status)));
    return;
  }
  const target = splitHostPort(authority, 443);
  if (target === null) {
    core.counters.refuse('bad_request');
    refuseRaw(socket, rawResponse(400, 'CONNECT needs host:port.\n'));
    return;
  }
  core.connectTarget(conn, target[0], target[1]).then(
    (upstream) => startTunnel(conn, upstream, head),
    (err: unknown) => {
      const failure = err instanceof UpstreamError ? err.failure : 'failed';
      if (socket.destroyed) return;
      core.counters.upstreamFailed(failure);
      refuseRaw(socket, rawResponse(FAILURE_STATUS[failure], FAILURE_MESSAGES[failure]));
    },
  );
}

const MALFORMED_CONNECT = 'The CONNECT request is malformed: send "CONNECT host:port HTTP/1.1" and header lines ' +
  '"Name: value", each ending in CRLF.\n';
const ESTABLISHED = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n');

function startTunnel(conn: ClientConnection, upstream: Socket, head: Buffer): void {
  const socket = conn.socket;
  if (socket.destroyed) {
    upstream.destroy();
    return;
  }
  socket.setTimeout(conn.core.limits.idleTimeoutMs);
  socket.write(ESTABLISHED);
  if (head.length > 0) upstream.write(head);
  conn.core.relayTunnel(conn, upstream);
}

const kForwarding = Symbol('cellport.forwarding-set');
type FrontSocket = TrackedSocket & { [kForwarding]?: ForwardingSet };

/** The listener of one modem's HTTP proxy port; closeIdleConnections closes kept connections between requests. */
export type HttpProxyServer = Server & { closeIdleConnections(): void };

/** Every new connection: read its first bytes ourselves (onHeadData). */
function startConnection(core: ProxyCore, forwarding: ForwardingSet, socket: Socket): void {
  core.accept(socket, 'http');
  if (socket.destroyed) return; // the proxy is stopping
  (socket as FrontSocket)[kForwarding] = forwarding;
  socket.setTimeout(core.limits.handshakeTimeoutMs);
  socket.on('timeout', destroySelf);
  // A client that hangs up before its first head ends is gone (the socket is half-open for the tunnel's sake only).
  socket.on('end', destroySelf);
  socket.on('data', onHeadData);
}

/** Bytes of a connection's first request, until it shows whether it is a CONNECT and, if so, until its head ends. */
function onHeadData(this: FrontSocket, chunk: Buffer): void {
  const conn = this[kConn]!;
  const buf = conn.pending === null ? chunk : Buffer.concat([conn.pending, chunk]);
  conn.pending = null;
  const head = readConnectHead(buf);
  if (head === INCOMPLETE) {
    // The socket's timeout is an idle timeout; a byte now and then must not keep a head open for ever. (A head that
    // is complete is taken however late: a stall of this process is not the client's doing.)
    if (Date.now() - conn.acceptedAt > conn.core.limits.handshakeTimeoutMs) this.destroy();
    else conn.pending = buf;
    return;
  }
  this.removeListener('data', onHeadData);
  this.removeListener('end', destroySelf);
  this.pause();
  if (head === NOT_CONNECT) {
    startForwarding(this, conn, buf, connectRequest, this[kForwarding]!);
  } else if (typeof head === 'number') {
    conn.core.counters.refuse('bad_request');
    refuseRaw(this, rawResponse(head, head === 431 ? MESSAGES[431]! : MALFORMED_CONNECT));
  } else {
    connectRequest(conn, head.authority, head.authorization, buf.subarray(head.length));
  }
}

/** The HTTP proxy server of one modem; the caller listens and closes it. */
export function createHttpProxyServer(core: ProxyCore): HttpProxyServer {
  const forwarding: ForwardingSet = new Set();
  // Half-open: a tunnel's client may end its side while the target still answers (splice.ts).
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => startConnection(core, forwarding, socket));
  return Object.assign(server, { closeIdleConnections: () => closeIdle(forwarding) });
}
