import { CONTROL, fieldNameEnd, headEnd, INCOMPLETE as HEAD_INCOMPLETE, MAX_HEADER_LINES, TOO_LARGE, trimOws } from './http-message-head.js';

// Reads the head of a CONNECT request that opens an HTTP proxy connection, straight from the socket's bytes (issue 31,
// item 1). Through Node's HTTP server every new tunnel paid for an llhttp parser's set-up, an IncomingMessage with its
// header objects and the server's bookkeeping, only to learn two strings: the target and the credentials. Anything
// that does not start with "CONNECT " is the plain forwarder's (http-forwarder.ts; http-proxy.ts hands it the bytes
// read so far). The head's grammar and bounds are http-message-head.ts's, shared by both paths.
//
// Strict, as RFC 9112 allows: the request line is exactly "CONNECT <authority> HTTP/1.x", lines end in CRLF, header
// names are tokens with the colon right after them, values hold no control characters (an obs-fold line starts with a
// space, which is no token: refused). llhttp refused all of that too, but let three things through that this refuses
// with 400: a request line without a version (HTTP/0.9 style), HTTP/2.0 in it, and two spaces between its parts. The
// head may be at most MAX_HEAD_BYTES and carry at most MAX_HEADER_LINES headers; beyond either the answer is 431.

/** The bytes seen so far are not a CONNECT request (the connection is the plain forwarder's to read). */
export const NOT_CONNECT = 0;
/** A CONNECT whose head has not ended yet: read more. */
export const INCOMPLETE = 1;
/** Malformed (400) or too large (431). */
export type HeadProblem = 400 | 431;

export interface ConnectHead {
  /** The request target as sent (authority-form, "host:port"; split by the caller). */
  authority: string;
  /** The first Proxy-Authorization header's value (Node kept the first too), without surrounding spaces. */
  authorization: string | undefined;
  /** Bytes of the head, its final empty line included: what follows is the tunnel's first bytes. */
  length: number;
}

const PREFIX = Buffer.from('CONNECT ', 'latin1');
/** The empty line that ends a head (headEnd's answer is just past it). */
const HEAD_END_BYTES = 4;
/** Visible ASCII only in the target, as llhttp's strict URL check; HTTP/1.0 and 1.1. */
const REQUEST_LINE = /^CONNECT ([\x21-\x7e]+) HTTP\/1\.[01]$/;
const PROXY_AUTHORIZATION = 'proxy-authorization';

/** What `buf`, the first bytes of a connection, holds: a CONNECT head, not a CONNECT, too little yet, or a problem. */
export function readConnectHead(buf: Buffer): ConnectHead | HeadProblem | typeof NOT_CONNECT | typeof INCOMPLETE {
  const n = Math.min(buf.length, PREFIX.length);
  for (let i = 0; i < n; i++) if (buf[i] !== PREFIX[i]) return NOT_CONNECT;
  if (buf.length < PREFIX.length) return INCOMPLETE;
  const end = headEnd(buf);
  if (end === TOO_LARGE) return 431;
  if (end === HEAD_INCOMPLETE) return INCOMPLETE;
  return parseHead(buf.toString('latin1', 0, end - HEAD_END_BYTES), end);
}

function parseHead(text: string, length: number): ConnectHead | HeadProblem {
  const lines = text.split('\r\n');
  const request = REQUEST_LINE.exec(lines[0]!);
  if (request === null) return 400;
  if (lines.length - 1 > MAX_HEADER_LINES) return 431;
  let authorization: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = fieldNameEnd(line);
    if (colon < 0) return 400;
    const value = line.slice(colon + 1);
    if (CONTROL.test(value)) return 400;
    if (authorization === undefined && colon === PROXY_AUTHORIZATION.length &&
      line.slice(0, colon).toLowerCase() === PROXY_AUTHORIZATION) {
      authorization = trimOws(value);
    }
  }
  return { authority: request[1]!, authorization, length };
}
