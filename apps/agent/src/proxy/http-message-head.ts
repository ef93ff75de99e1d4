// The heads of plain HTTP/1.1 requests and of the targets' responses, read straight from the bytes (issue 31 item 1,
// decision 048). The forwarder (http-forwarder.ts) needs only a few facts from a head: the request line, the
// credentials, how the body is framed, whether the connection stays open, and the header lines to pass on without the
// hop-by-hop ones. Node's parser built an IncomingMessage with header objects and arrays for every message on both
// hops; these functions build one string of the lines passed on and a handful of fields.
//
// Requests are read as strictly as connect-head.ts reads CONNECT heads (and as llhttp did, which answered 400 to all
// of it): lines end in CRLF, header names are tokens with the colon right after them, values hold no control
// characters, obs-fold is refused. Body framing must be unambiguous (issue 26): one Content-Length of digits, or
// "Transfer-Encoding: chunked" alone in an HTTP/1.1 request; anything else is FRAMING (400, and the connection closes).

/** The largest head read, request or status line and headers, on both of the proxy's paths (CONNECT and plain). */
export const MAX_HEAD_BYTES = 16 * 1024;
/** The most header lines in a head (Apache's LimitRequestFields default); real clients send a handful. */
export const MAX_HEADER_LINES = 100;

/** The head has not ended yet: read more. */
export const INCOMPLETE = 0;
/** The head is larger than MAX_HEAD_BYTES (answered 431). Negative, so that no head's length can be taken for it. */
export const TOO_LARGE = -1;
/** Malformed (400), ambiguous body framing (FRAMING, answered 400 with its own text) or too large (431). */
export const FRAMING = 1;
export type HeadProblem = 400 | 431 | typeof FRAMING;

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([\x21-\x7e]+) HTTP\/1\.([01])$/;
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([^\x00-\x08\x0a-\x1f\x7f]*))?$/;
/** Characters of a token (RFC 9110 §5.6.2), by code: !#$%&'*+-.^_`|~, digits and letters. */
const TOKEN = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TOKEN[c.charCodeAt(0)] = 1;

/**
 * Where a header line's colon is, when the line opens with a field name (a token, nothing between it and the colon);
 * -1 when it does not. A loop over a table, where /^[token]+:/.exec built a match array for every header line
 * (0.4 % of a new CONNECT tunnel's CPU in a V8 profile, 2026-12-07 dev).
 */
export function fieldNameEnd(line: string): number {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 58 /* : */) return i > 0 ? i : -1;
    if (c >= 128 || TOKEN[c] === 0) return -1;
  }
  return -1;
}
/** Control characters other than HTAB are not allowed in a field value (a lone CR or LF among them). */
export const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
/**
 * A field value without its optional whitespace (spaces and tabs only: String.trim would also take a latin1 NBSP).
 * A loop, not replace() with /^[ \t]+|[ \t]+$/g: that regex tried its second branch at every character of the value,
 * 0.6 % of a new CONNECT tunnel's CPU for its Proxy-Authorization alone (bench/BENCHMARKS.md, 2026-12-07 dev).
 */
export function trimOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isOws(value.charCodeAt(start))) start++;
  while (end > start && isOws(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}
function isOws(code: number): boolean {
  return code === 32 || code === 9;
}
const DIGITS = /^\d{1,15}$/;

/** Headers that describe one hop, not the message; never passed on (RFC 9110 §7.6.1), plus our own credentials. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'proxy-connection', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

export interface RequestHead {
  method: string;
  /** The request target as sent (absolute-form for a proxy: http://host/path). */
  target: string;
  /** HTTP/1.0 or 1.1. */
  minor: number;
  /** The header lines passed on, each followed by CRLF (no hop-by-hop ones, none the Connection header names). */
  lines: string;
  /** The first Proxy-Authorization's value, without surrounding spaces. */
  authorization: string | undefined;
  hasHost: boolean;
  /** Content-Length, or -1 when there is none. */
  contentLength: number;
  chunked: boolean;
  /** The client keeps the connection open after this exchange (HTTP/1.1 unless "close", 1.0 only with "keep-alive"). */
  keepAlive: boolean;
  /** "Expect: 100-continue": the client waits for a 100 before it sends the body. */
  expectContinue: boolean;
  /** Bytes of the head, its empty line included. */
  length: number;
}

export interface ResponseHead {
  status: number;
  /** The status line's reason phrase as sent (may be empty). */
  reason: string;
  minor: number;
  lines: string;
  /** Content-Length, or -1 (none, or a Transfer-Encoding present, which overrides it). */
  contentLength: number;
  /** The Transfer-Encoding's value when there is one (its last coding is chunked when `chunked`). */
  transferEncoding: string | undefined;
  chunked: boolean;
  /** The target keeps the connection open (HTTP/1.1 unless "close", 1.0 only with "keep-alive"). */
  keepAlive: boolean;
  length: number;
}

/** The end of a head in `buf` (the index just past its empty line), INCOMPLETE, or TOO_LARGE when it cannot fit. */
export function headEnd(buf: Buffer): number {
  const end = buf.indexOf(HEAD_END);
  if (end < 0) return buf.length >= MAX_HEAD_BYTES ? TOO_LARGE : INCOMPLETE;
  return end + HEAD_END.length > MAX_HEAD_BYTES ? TOO_LARGE : end + HEAD_END.length;
}

/**
 * Whether a head still coming has a line feed without its carriage return: such a head can never end well (strict
 * CRLF, as llhttp answered it at once), so it is refused now rather than left to the handshake timeout.
 */
export function hasBareLineFeed(buf: Buffer): boolean {
  for (let i = buf.indexOf(0x0a); i >= 0; i = buf.indexOf(0x0a, i + 1)) if (i === 0 || buf[i - 1] !== 0x0d) return true;
  return false;
}

/** Header lines shared by both directions: what to pass on and the framing and connection facts. */
class Fields {
  lines = '';
  contentLength = -1;
  lengths = 0;
  transferEncoding: string | undefined = undefined;
  encodings = 0;
  connection: string | undefined = undefined;
  authorization: string | undefined = undefined;
  hasHost = false;
  expect: string | undefined = undefined;
  bad = false;

  /** `drop`: the header names a Connection header named (read again with them once it is known; rare). */
  constructor(private readonly drop: Set<string> | null = null) {}

  read(text: string, from: number, maxLines: number): number | HeadProblem {
    let count = 0;
    let at = from;
    while (at < text.length) {
      let eol = text.indexOf('\r\n', at);
      if (eol < 0) eol = text.length;
      const line = text.slice(at, eol);
      at = eol + 2;
      if (++count > maxLines) return 431;
      const colon = fieldNameEnd(line);
      if (colon < 0) return 400;
      const raw = line.slice(colon + 1);
      if (CONTROL.test(raw)) return 400;
      this.field(line, line.slice(0, colon).toLowerCase(), raw);
    }
    return 0;
  }

  private field(line: string, name: string, raw: string): void {
    switch (name) {
      case 'content-length': {
        const value = trimOws(raw);
        if (!DIGITS.test(value)) this.bad = true;
        else if (this.lengths++ > 0) this.bad = true; // a second one, even equal: llhttp refused those too
        else this.contentLength = Number(value);
        break;
      }
      case 'transfer-encoding':
        this.encodings++;
        this.transferEncoding = this.transferEncoding === undefined ? trimOws(raw) : `${this.transferEncoding}, ${trimOws(raw)}`;
        return;
      case 'connection':
        this.connection = this.connection === undefined ? raw : `${this.connection},${raw}`;
        return;
      case 'proxy-authorization':
        if (this.authorization === undefined) this.authorization = trimOws(raw);
        return;
      case 'host':
        this.hasHost = true;
        break;
      case 'expect':
        this.expect = trimOws(raw).toLowerCase();
        break;
      default:
        if (HOP_BY_HOP.has(name)) return;
    }
    if (this.drop !== null && this.drop.has(name)) return;
    this.lines += `${line}\r\n`;
  }

  /** Whether the Connection header holds `token` (close, keep-alive). */
  connectionHas(token: string): boolean {
    if (this.connection === undefined) return false;
    for (const t of this.connection.split(',')) if (t.trim().toLowerCase() === token) return true;
    return false;
  }

  /** The header names the Connection header names besides close and keep-alive (null: none, the common case). */
  named(): Set<string> | null {
    const c = this.connection;
    if (c === undefined) return null;
    const only = c.trim().toLowerCase(); // the usual values, without splitting
    if (only === 'keep-alive' || only === 'close') return null;
    let named: Set<string> | null = null;
    for (const t of c.split(',')) {
      const token = t.trim().toLowerCase();
      if (token !== '' && token !== 'close' && token !== 'keep-alive') (named ??= new Set()).add(token);
    }
    return named;
  }
}

/** The fields of the header lines from `from` on; read twice when a Connection header names some to drop. */
function readFields(text: string, from: number, maxLines: number): Fields | HeadProblem {
  const fields = new Fields();
  const problem = fields.read(text, from, maxLines);
  if (problem !== 0) return problem as HeadProblem;
  const named = fields.named();
  if (named === null) return fields;
  const again = new Fields(named);
  again.read(text, from, maxLines);
  return again;
}

/** Reads a request head ending at `end` (headEnd's answer). */
export function parseRequestHead(buf: Buffer, end: number): RequestHead | HeadProblem {
  const text = buf.toString('latin1', 0, end - 4);
  let eol = text.indexOf('\r\n');
  if (eol < 0) eol = text.length;
  const request = REQUEST_LINE.exec(text.slice(0, eol));
  if (request === null) return 400;
  const fields = readFields(text, eol + 2, MAX_HEADER_LINES);
  if (typeof fields === 'number') return fields;
  const minor = Number(request[3]);
  if (fields.bad) return FRAMING;
  let chunked = false;
  if (fields.transferEncoding !== undefined) {
    // Only "chunked" alone passes on exactly; codings before it would reach the target without a word of them, and
    // chunked in HTTP/1.0 is faulty framing (RFC 9112 §6.1). With a Content-Length, the two disagree (§6.3).
    if (fields.encodings !== 1 || fields.transferEncoding.toLowerCase() !== 'chunked' || minor !== 1 || fields.lengths > 0) return FRAMING;
    chunked = true;
  }
  const keepAlive = minor === 1 ? !fields.connectionHas('close') : fields.connectionHas('keep-alive');
  return {
    method: request[1]!,
    target: request[2]!,
    minor,
    lines: fields.lines,
    authorization: fields.authorization,
    hasHost: fields.hasHost,
    contentLength: fields.contentLength,
    chunked,
    keepAlive,
    expectContinue: minor === 1 && fields.expect === '100-continue',
    length: end,
  };
}

/** Reads a response head ending at `end`; null when it is not one (the target is not speaking HTTP/1.x). */
export function parseResponseHead(buf: Buffer, end: number): ResponseHead | null {
  const text = buf.toString('latin1', 0, end - 4);
  let eol = text.indexOf('\r\n');
  if (eol < 0) eol = text.length;
  const status = STATUS_LINE.exec(text.slice(0, eol));
  if (status === null) return null;
  // A target's head may hold more lines than a client's (cookies): only its size is bounded, as Node's client did.
  const fields = readFields(text, eol + 2, Infinity);
  if (typeof fields === 'number' || fields.bad) return null;
  const minor = Number(status[1]);
  const te = fields.transferEncoding;
  const chunked = te !== undefined && /(?:^|,)[ \t]*chunked$/i.test(te);
  return {
    status: Number(status[2]),
    reason: status[3] ?? '',
    minor,
    lines: te !== undefined && fields.lengths > 0 ? dropLength(fields.lines) : fields.lines,
    contentLength: te !== undefined ? -1 : fields.contentLength,
    transferEncoding: te,
    chunked,
    keepAlive: minor === 1 ? !fields.connectionHas('close') : fields.connectionHas('keep-alive'),
    length: end,
  };
}

/** A Transfer-Encoding overrides a Content-Length (RFC 9112 §6.3): the length is not passed on beside it. */
function dropLength(lines: string): string {
  return lines.split('\r\n').filter((l) => l !== '' && !/^content-length:/i.test(l)).map((l) => `${l}\r\n`).join('');
}
