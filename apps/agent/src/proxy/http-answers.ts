import { STATUS_CODES } from 'node:http';
import { MAX_HEAD_BYTES, MAX_HEADER_LINES } from './http-message-head.js';
import type { ClientConnection, ProxyCore, UpstreamFailure } from './connection.js';

// What the HTTP proxy answers by itself, and who a client is: shared by its two paths, CONNECT tunnels
// (http-proxy.ts) and plain forwarding (http-forwarder.ts). Answers are complete raw responses, built once per
// status, text and connection mode.

const REALM = 'Basic realm="Cellport"';

export const MESSAGES: Record<number, string> = {
  400: 'This is a proxy: send an absolute http:// URL or a CONNECT request.\n',
  403: 'This proxy port is not active (expired, suspended or deactivated).\n',
  407: 'Proxy authentication required.\n',
  429: 'Too many open connections on this proxy port.\n',
  431: `The request head is larger than the proxy reads (${MAX_HEAD_BYTES / 1024} KB, ${MAX_HEADER_LINES} header lines at most).\n`,
};
/** authorize's answer for a client blocked for guessing passwords (auth-guard.ts): 429 with its own text, and close. */
export const BLOCKED = 1;
const BLOCKED_MESSAGE = 'Too many wrong proxy passwords from your address. Try again in a few minutes.\n';
/** A port refused because it used up its monthly traffic (its tariff blocks it until the month ends, issue 18). */
const QUOTA_MESSAGE = 'This proxy port has used up its traffic for this month. It opens again at 00:00 UTC on the 1st.\n';

/** A request body whose length the proxy cannot tell the target unambiguously (issue 26): refused, never forwarded. */
export const FRAMING_MESSAGE = 'The request body is framed ambiguously: send it with one Content-Length or with ' +
  '"Transfer-Encoding: chunked" alone.\n';
export const MALFORMED_REQUEST = 'The request is malformed: send "METHOD http://host/path HTTP/1.1" and header lines ' +
  '"Name: value", each ending in CRLF.\n';

/** What a refusal says: a blocked quota is told as such, not as an inactive port. */
export function refusal(conn: ClientConnection, status: number): string {
  if (status === BLOCKED) return BLOCKED_MESSAGE;
  return status === 403 && conn.entry?.access.limits?.quota.state === 'blocked' && conn.entry.access.state === 'active'
    ? QUOTA_MESSAGE : MESSAGES[status]!;
}

export const FAILURE_STATUS: Record<UpstreamFailure, number> = {
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
export const FAILURE_MESSAGES: Record<UpstreamFailure, string> = {
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

/** A failure of a target connection by its error code. */
export function failureOf(err: NodeJS.ErrnoException): UpstreamFailure {
  return err.code === 'ECONNREFUSED' ? 'connection-refused'
    : err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH' ? 'unreachable' : 'failed';
}

const answers = new Map<string, Buffer>();
/** A complete response of the proxy's own: text/plain, its length, and "Connection: close" when `close`. */
export function rawResponse(status: number, body: string, close = true): Buffer {
  const key = `${status}\n${close ? 'c' : 'k'}\n${body}`;
  let buf = answers.get(key);
  if (!buf) {
    const auth = status === 407 ? `Proxy-Authenticate: ${REALM}\r\n` : '';
    buf = Buffer.from(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${auth}Content-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${body}`,
    );
    answers.set(key, buf);
  }
  return buf;
}

/**
 * Who the client is and whether it may go on: 0, the HTTP status to refuse with, or BLOCKED. The same accepted header
 * on a keep-alive connection skips the password check (setPorts closes connections whose credentials changed).
 */
export function authorize(core: ProxyCore, conn: ClientConnection, header: string | undefined): number {
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
export function parseAbsolute(url: string): [string, number, string] | null {
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

/** The Host field for a request the client sent without one: an IPv6 literal in brackets, the port unless 80 (RFC 9110). */
export function hostField(host: string, port: number): string {
  const name = host.includes(':') ? `[${host}]` : host;
  return port === 80 ? name : `${name}:${port}`;
}
