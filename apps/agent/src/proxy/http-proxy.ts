import { createServer, request as httpRequest, STATUS_CODES } from 'node:http';
import type { ClientRequest, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { MAX_FAILURES_PER_CONNECTION } from './auth-guard.js';
import { INCOMPLETE, MAX_HEAD_BYTES, MAX_HEADER_LINES, NOT_CONNECT, readConnectHead } from './connect-head.js';
import { destroySelf, kConn, UpstreamError } from './connection.js';
import { relay } from './relay.js';
import { splice } from './splice.js';
import type { ClientConnection, ProxyCore, TrackedSocket, UpstreamFailure } from './connection.js';

// The HTTP proxy listener: absolute-URI forwarding of http:// requests and CONNECT tunnels. A connection that opens
// with CONNECT is read here (connect-head.ts) and never meets Node's HTTP server: its parser's set-up per connection
// was most of what a new tunnel cost beyond the kernel's work (issue 31, bench/BENCHMARKS.md). Any other connection
// is handed to Node's HTTP server with the bytes read so far; its parser reads the requests (a CONNECT after other
// requests on a keep-alive connection too): headersTimeout closes slow (slowloris) headers, maxHeaderSize oversized
// ones, and malformed input gets Node's own 400 and a closed socket (the server's default 'clientError' behaviour).

const REALM = 'Basic realm="Cellport"';

const MESSAGES: Record<number, string> = {
  400: 'This is a proxy: send an absolute http:// URL or a CONNECT request.\n',
  403: 'This proxy port is not active (expired, suspended or deactivated).\n',
  407: 'Proxy authentication required.\n',
  429: 'Too many open connections on this proxy port.\n',
  431: `The request head is larger than the proxy reads (${MAX_HEAD_BYTES / 1024} KB, ${MAX_HEADER_LINES} header lines at most).\n`,
};
/** authorize's answer for a client blocked for guessing passwords (auth-guard.ts): 429 with its own text, and close. */
const BLOCKED = 1;
const BLOCKED_MESSAGE = 'Too many wrong proxy passwords from your address. Try again in a few minutes.\n';
/** A port refused because it used up its monthly traffic (its tariff blocks it until the month ends, issue 18). */
const QUOTA_MESSAGE = 'This proxy port has used up its traffic for this month. It opens again at 00:00 UTC on the 1st.\n';

/** What a refusal says: a blocked quota is told as such, not as an inactive port. */
function refusal(conn: ClientConnection, status: number): string {
  if (status === BLOCKED) return BLOCKED_MESSAGE;
  return status === 403 && conn.entry?.access.limits?.quota.state === 'blocked' && conn.entry.access.state === 'active'
    ? QUOTA_MESSAGE : MESSAGES[status]!;
}
const FAILURE_STATUS: Record<UpstreamFailure, number> = {
  refused: 403,
  unresolvable: 502,
  family: 502,
  unreachable: 502,
  'connection-refused': 502,
  timeout: 504,
  rotating: 503,
  fingerprint: 503,
  failed: 502,
};
const FAILURE_MESSAGES: Record<UpstreamFailure, string> = {
  refused: 'This target is not allowed through this proxy.\n',
  unresolvable: 'The target host name does not resolve.\n',
  family: 'This modem cannot reach targets of that address family.\n',
  unreachable: 'The target is unreachable.\n',
  'connection-refused': 'The target refused the connection.\n',
  timeout: 'The target did not answer in time.\n',
  rotating: 'The modem is changing its IP address; try again in a moment.\n',
  fingerprint: 'This port\'s OS fingerprint preset cannot be applied on its host right now, so the connection was refused rather than sent with the host\'s own fingerprint.\n',
  failed: 'The proxy could not reach the target.\n',
};

/** Complete raw responses for refused CONNECT requests (the socket is no longer an HTTP response by then). */
const rawCache = new Map<string, Buffer>();
function rawResponse(status: number, body: string): Buffer {
  const key = `${status}\n${body}`;
  let buf = rawCache.get(key);
  if (!buf) {
    const auth = status === 407 ? `Proxy-Authenticate: ${REALM}\r\n` : '';
    buf = Buffer.from(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${auth}Content-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    rawCache.set(key, buf);
  }
  return buf;
}

/** A request body whose length the proxy cannot tell the target unambiguously (issue 26): refused, never forwarded. */
const FRAMING_MESSAGE = 'The request body is framed ambiguously: send it with one Content-Length or with ' +
  '"Transfer-Encoding: chunked" alone.\n';

/**
 * Methods whose requests carry no body in ordinary use. A body on one is still forwarded, framed explicitly, but its
 * upstream connection is closed after the exchange rather than pooled: a target that ignores bodies on these methods
 * would read the body as a request of its own, and that connection must not serve another request.
 */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);

function reply(res: ServerResponse, status: number, body: string, close = false): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string | number> = {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  };
  if (status === 407) headers['Proxy-Authenticate'] = REALM;
  if (close) headers.Connection = 'close';
  res.writeHead(status, headers);
  res.end(body);
}

/**
 * Whether the request's body framing is one the proxy can pass on exactly. Node's parser already answers 400 to
 * Content-Length with Transfer-Encoding, to duplicate or invalid Content-Length and to a Transfer-Encoding that does
 * not end in chunked; left are codings before chunked ("gzip, chunked", whose decoded body would reach the target
 * with no word of its gzip) and chunked in an HTTP/1.0 request, which RFC 9112 §6.1 calls faulty framing.
 */
function framingOk(req: IncomingMessage): boolean {
  const te = req.headers['transfer-encoding'];
  return te === undefined || (req.httpVersionMinor === 1 && te.length === 7 && te.toLowerCase() === 'chunked');
}

/**
 * Who the client is and whether it may go on: 0, the HTTP status to refuse with, or BLOCKED. The same accepted header
 * on a keep-alive connection skips the password check (setPorts closes connections whose credentials changed).
 */
function authorize(core: ProxyCore, conn: ClientConnection, header: string | undefined): number {
  if (conn.entry === null || header !== conn.authHeader) {
    let login: string | null = null;
    let password: string | null = null;
    if (header !== undefined) {
      const decoded = parseBasic(header);
      login = decoded?.[0] ?? '';
      password = decoded?.[1] ?? '';
    }
    const identity = core.identify(conn, login, password);
    if (identity === 'blocked') return BLOCKED;
    if (identity !== 'ok') {
      if (login !== null) conn.authFailures++;
      return 407;
    }
    conn.authHeader = header;
  }
  const admission = core.admit(conn);
  return admission === 'ok' ? 0 : admission === 'inactive' ? 403 : 429;
}

function parseBasic(header: string): [string, string] | null {
  if (header.length < 7 || header.slice(0, 6).toLowerCase() !== 'basic ') return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

/** Headers that describe one hop, not the message; never forwarded (RFC 9110 §7.6.1), plus our own credentials. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'proxy-connection', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

/** rawHeaders without hop-by-hop headers and those the Connection header names. */
function endToEnd(raw: string[]): string[] {
  let named: string[] | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 10 && raw[i]!.toLowerCase() === 'connection') {
      for (const token of raw[i + 1]!.split(',')) (named ??= []).push(token.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || (named !== null && named.includes(name))) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** Answers a CONNECT that gets no tunnel; reading on sees the client's FIN, after which the socket closes. */
function refuseRaw(socket: Socket, response: Buffer): void {
  socket.end(response);
  socket.resume();
}

function connOf(socket: Socket): ClientConnection {
  return (socket as TrackedSocket)[kConn]!;
}

/** Splits "host:port" / "[v6]:port"; null when malformed. */
export function splitHostPort(authority: string, defaultPort: number): [string, number] | null {
  let host: string;
  let rest: string;
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close < 0) return null;
    host = authority.slice(1, close);
    rest = authority.slice(close + 1);
  } else {
    const colon = authority.lastIndexOf(':');
    host = colon < 0 ? authority : authority.slice(0, colon);
    rest = colon < 0 ? '' : authority.slice(colon);
  }
  let port = defaultPort;
  if (rest !== '') {
    if (rest[0] !== ':' || !/^:\d{1,5}$/.test(rest)) return null;
    port = Number(rest.slice(1));
  }
  if (host === '' || port < 1 || port > 65535) return null;
  return [host, port];
}

/** Parses "http://authority/path" without a URL object: [host, port, path] or null. */
function parseAbsolute(url: string): [string, number, string] | null {
  if (url.length < 8 || url.slice(0, 7).toLowerCase() !== 'http://') return null;
  let end = url.length;
  for (let i = 7; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  let authority = url.slice(7, end);
  if (authority.includes('@')) authority = authority.slice(authority.lastIndexOf('@') + 1); // userinfo is not sent on
  const hostPort = splitHostPort(authority, 80);
  if (hostPort === null) return null;
  let path = url.slice(end);
  const hash = path.indexOf('#');
  if (hash >= 0) path = path.slice(0, hash);
  if (path === '' || path[0] === '?') path = `/${path}`;
  return [hostPort[0], hostPort[1], path];
}

function onRequest(req: IncomingMessage, res: ServerResponse): void {
  const conn = connOf(req.socket);
  if (!framingOk(req)) {
    conn.core.counters.refuse('bad_request');
    reply(res, 400, FRAMING_MESSAGE, true); // the rest of the stream cannot be read as requests: close it
    return;
  }
  const target = parseAbsolute(req.url ?? '');
  if (target === null) {
    conn.core.counters.refuse('bad_request');
    reply(res, 400, MESSAGES[400]!);
    return;
  }
  const status = authorize(conn.core, conn, req.headers['proxy-authorization']);
  if (status !== 0) {
    // A blocked client, or one that offered wrong credentials a few times on this connection, must reconnect.
    const close = status === BLOCKED || conn.authFailures >= MAX_FAILURES_PER_CONNECTION;
    reply(res, status === BLOCKED ? 429 : status, refusal(conn, status), close);
    return;
  }
  conn.core.resolveTarget(conn, target[0], target[1]).then(
    (address) => forward(conn, req, res, address, target),
    (err: unknown) => {
      const failure = err instanceof UpstreamError ? err.failure : 'failed';
      if (!res.destroyed) conn.core.counters.upstreamFailed(failure);
      reply(res, FAILURE_STATUS[failure], FAILURE_MESSAGES[failure]);
    },
  );
}

// The upstream request's handlers are module-level and find the client's response (and the modem) through symbols on
// the request, as relay.ts does for bodies: four closures per forwarded request were a tenth of its garbage.
const kRes = Symbol('cellport.res');
const kCore = Symbol('cellport.core');
const kUpstream = Symbol('cellport.upstream');
type Upstream = ClientRequest & { [kRes]: ServerResponse; [kCore]: ProxyCore };
type Downstream = ServerResponse & { [kUpstream]: ClientRequest };

// Until the target starts answering, connectTimeoutMs applies (504); then the idle timeout.
function onUpstreamTimeout(this: Upstream): void {
  const res = this[kRes];
  if (!res.headersSent) {
    this[kCore].counters.upstreamFailed('timeout');
    reply(res, 504, FAILURE_MESSAGES.timeout);
  }
  this.destroy();
}

function onUpstreamError(this: Upstream, err: NodeJS.ErrnoException): void {
  const res = this[kRes];
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const failure: UpstreamFailure = err instanceof UpstreamError ? err.failure : err.code === 'ECONNREFUSED' ? 'connection-refused'
    : err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH' ? 'unreachable' : 'failed';
  this[kCore].counters.upstreamFailed(failure);
  reply(res, FAILURE_STATUS[failure], FAILURE_MESSAGES[failure]);
}

function onUpstreamResponse(this: Upstream, upstreamRes: IncomingMessage): void {
  this.setTimeout(this[kCore].limits.idleTimeoutMs);
  const res = this[kRes];
  if (res.destroyed) {
    this.destroy();
    return;
  }
  res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, endToEnd(upstreamRes.rawHeaders));
  relay(upstreamRes, res);
}

/** A client that goes away mid-request takes the upstream request with it. */
function onResponseClose(this: Downstream): void {
  if (!this.writableFinished) this[kUpstream].destroy();
}

function forward(conn: ClientConnection, req: IncomingMessage, res: ServerResponse, address: string,
  [host, port, path]: [string, number, string]): void {
  if (res.destroyed || conn.socket.destroyed) return;
  const core = conn.core;
  const headers = endToEnd(req.rawHeaders);
  if (req.headers.host === undefined) headers.push('Host', port === 80 ? host : `${host}:${port}`);
  // Every body goes on with explicit framing: its Content-Length (end to end, kept above), or chunked, which
  // endToEnd dropped as hop-by-hop and Node's client would not add by itself on GET, HEAD, DELETE or OPTIONS.
  const chunked = req.headers['transfer-encoding'] !== undefined; // framingOk: "chunked" exactly
  const length = req.headers['content-length'];
  const hasBody = chunked || (length !== undefined && length !== '0');
  if (chunked) headers.push('Transfer-Encoding', 'chunked');
  if (hasBody && BODYLESS_METHODS.has(req.method!)) headers.push('Connection', 'close');
  const upstream = httpRequest({
    host: address,
    port,
    method: req.method,
    path,
    headers,
    agent: core.forwardAgent(conn.portId!),
    localAddress: core.egress,
  }) as Upstream;
  upstream[kRes] = res;
  upstream[kCore] = core;
  (res as Downstream)[kUpstream] = upstream;
  upstream.setTimeout(core.limits.connectTimeoutMs);
  upstream.on('timeout', onUpstreamTimeout);
  upstream.on('error', onUpstreamError);
  upstream.on('response', onUpstreamResponse);
  res.on('close', onResponseClose);
  if (hasBody) relay(req, upstream);
  else upstream.end();
}

/** A CONNECT that came after other requests on a keep-alive connection: Node's HTTP server read it. */
function onConnect(req: IncomingMessage, socket: Socket, head: Buffer): void {
  // The socket is ours now, not the HTTP server's: hold its bytes until the tunnel is up.
  socket.pause();
  socket.setTimeout(connOf(socket).core.limits.handshakeTimeoutMs);
  socket.on('timeout', destroySelf);
  connectRequest(connOf(socket), req.url ?? '', req.headers['proxy-authorization'], head);
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
  splice(socket, upstream);
}

// The front end every connection starts in. Node's HTTP server keeps the listening socket (listen, close, the
// headersTimeout checker, acceptStream's 'connection'), but its own 'connection' listener, which sets up a parser, is
// moved to HAND_OVER and called only for connections that do not open with CONNECT.
const HAND_OVER = 'cellport:http-server-connection';
const kServer = Symbol('cellport.http-server');
type FrontSocket = TrackedSocket & { [kServer]?: Server };

/** Every new connection: read its first bytes ourselves (onHeadData). */
function startConnection(core: ProxyCore, server: Server, socket: Socket): void {
  core.accept(socket, 'http');
  if (socket.destroyed) return; // the proxy is stopping
  (socket as FrontSocket)[kServer] = server;
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
    handOver(this, buf);
  } else if (typeof head === 'number') {
    conn.core.counters.refuse('bad_request');
    refuseRaw(this, rawResponse(head, head === 431 ? MESSAGES[431]! : MALFORMED_CONNECT));
  } else {
    connectRequest(conn, head.authority, head.authorization, buf.subarray(head.length));
  }
}

/** Gives a connection that is not a CONNECT to Node's HTTP server, the bytes already read first. */
function handOver(socket: FrontSocket, read: Buffer): void {
  socket.removeListener('timeout', destroySelf);
  socket.setTimeout(0);
  socket.unshift(read);
  socket[kServer]!.emit(HAND_OVER, socket);
  socket.resume();
}

/** The HTTP proxy server of one modem; the caller listens and closes it. */
export function createHttpProxyServer(core: ProxyCore): Server {
  const { handshakeTimeoutMs, idleTimeoutMs } = core.limits;
  const server = createServer({
    headersTimeout: handshakeTimeoutMs,
    // 0: a long upload through plain forwarding is not cut; a stalled one is, by the idle timeout.
    requestTimeout: 0,
    // The same bound as a CONNECT head read by connect-head.ts, so both front ends refuse the same heads.
    maxHeaderSize: MAX_HEAD_BYTES,
    keepAliveTimeout: Math.min(idleTimeoutMs, 30_000),
    // How often Node looks for connections past headersTimeout (its default, 30 s, lets slow headers linger).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, handshakeTimeoutMs)),
    noDelay: true,
  }, onRequest);
  server.timeout = idleTimeoutMs;
  const nodeConnection = server.listeners('connection');
  if (nodeConnection.length !== 1) throw new Error('Node\'s HTTP server has no single connection listener to move');
  server.removeAllListeners('connection');
  server.on(HAND_OVER, nodeConnection[0] as (socket: Socket) => void);
  server.on('connection', (socket: Socket) => startConnection(core, server, socket));
  server.on('connect', onConnect);
  return server;
}
