import { describe, expect, it } from 'vitest';
import { ChunkedReader } from './chunked-body.js';
import { MAX_HEAD_BYTES, MAX_HEADER_LINES } from './http-message-head.js';
import { FRAMING, hasBareLineFeed, headEnd, INCOMPLETE, parseRequestHead, parseResponseHead, TOO_LARGE, trimOws, fieldNameEnd } from './http-message-head.js';
import type { RequestHead, ResponseHead } from './http-message-head.js';

function request(text: string): RequestHead | number {
  const buf = Buffer.from(text, 'latin1');
  const end = headEnd(buf);
  if (end === TOO_LARGE) return 431; // what the forwarder answers it with
  return end === INCOMPLETE ? end : parseRequestHead(buf, end);
}

function response(text: string): ResponseHead | null {
  const buf = Buffer.from(text, 'latin1');
  return parseResponseHead(buf, headEnd(buf));
}

describe('request heads read by the forwarder', () => {
  it('keeps end-to-end lines as sent, drops hop-by-hop ones, those Connection names, and the credentials', () => {
    const head = request('GET http://a.example/x?y HTTP/1.1\r\nHost: a.example\r\nX-Kept: 1\r\nProxy-Authorization:  Basic abc \r\n' +
      'Connection: X-Secret, keep-alive\r\nX-Secret: s\r\nKeep-Alive: timeout=5\r\nTE: trailers\r\nUpgrade: h2c\r\n' +
      'Proxy-Connection: keep-alive\r\n\r\n') as RequestHead;
    expect(head).toMatchObject({
      method: 'GET', target: 'http://a.example/x?y', minor: 1, authorization: 'Basic abc', hasHost: true,
      contentLength: -1, chunked: false, keepAlive: true, expectContinue: false,
    });
    expect(head.lines).toBe('Host: a.example\r\nX-Kept: 1\r\n');
  });

  it('tells keep-alive by version and Connection, and Expect: 100-continue', () => {
    expect((request('GET http://a/ HTTP/1.1\r\nConnection: close\r\n\r\n') as RequestHead).keepAlive).toBe(false);
    expect((request('GET http://a/ HTTP/1.0\r\n\r\n') as RequestHead).keepAlive).toBe(false);
    expect((request('GET http://a/ HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n') as RequestHead).keepAlive).toBe(true);
    expect((request('POST http://a/ HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n') as RequestHead))
      .toMatchObject({ expectContinue: true, contentLength: 3, lines: 'Expect: 100-Continue\r\nContent-Length: 3\r\n' });
  });

  it('refuses ambiguous framing (FRAMING) and malformed heads (400)', () => {
    const start = 'POST http://a/ HTTP/1.1\r\n';
    for (const fields of ['Content-Length: 5\r\nContent-Length: 5', 'Content-Length: +5', 'Content-Length: 5, 5',
      'Transfer-Encoding: gzip, chunked', 'Transfer-Encoding: chunked\r\nContent-Length: 3',
      'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked']) {
      expect(request(`${start}${fields}\r\n\r\n`), fields).toBe(FRAMING);
    }
    expect(request('POST http://a/ HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n')).toBe(FRAMING);
    expect((request(`${start}Transfer-Encoding:  Chunked \r\n\r\n`) as RequestHead).chunked).toBe(true);
    for (const bad of ['GET http://a/\r\n\r\n', 'GET  http://a/ HTTP/1.1\r\n\r\n', 'GET http://a/ HTTP/2.0\r\n\r\n',
      `${start}Name : v\r\n\r\n`, `${start} folded\r\n\r\n`, `${start}X: a\x0bb\r\n\r\n`, `${start}X: a\nY: b\r\n\r\n`]) {
      expect(request(bad), JSON.stringify(bad)).toBe(400);
    }
    expect(hasBareLineFeed(Buffer.from('GET http://a/ HTTP/1.1\nHost: a\n'))).toBe(true);
    expect(hasBareLineFeed(Buffer.from('GET http://a/ HTTP/1.1\r\nHost: a\r\n'))).toBe(false);
  });

  it('431 past MAX_HEAD_BYTES (ended or not) and past MAX_HEADER_LINES', () => {
    const big = `GET http://a/ HTTP/1.1\r\nX: ${'a'.repeat(MAX_HEAD_BYTES)}`;
    expect(request(big)).toBe(431);
    expect(request(`${big}\r\n\r\n`)).toBe(431);
    const lines = Array.from({ length: MAX_HEADER_LINES + 1 }, (_, i) => `X-${i}: v\r\n`).join('');
    expect(request(`GET http://a/ HTTP/1.1\r\n${lines}\r\n`)).toBe(431);
    expect(request('GET http://a/ HTTP/1.1\r\nHost: a\r\n')).toBe(INCOMPLETE);
  });
});

describe('response heads read by the forwarder', () => {
  it('reads status, reason and framing; a Transfer-Encoding overrides a Content-Length', () => {
    expect(response('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n')).toMatchObject({
      status: 200, reason: 'OK', contentLength: 3, chunked: false, keepAlive: true, lines: 'Content-Length: 3\r\n',
    });
    expect(response('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n')).toMatchObject({
      contentLength: -1, chunked: true, transferEncoding: 'chunked', lines: '',
    });
    expect(response('HTTP/1.1 204 \r\n\r\n')).toMatchObject({ status: 204, reason: '' });
    expect(response('HTTP/1.1 200\r\n\r\n')).toMatchObject({ status: 200, reason: '', contentLength: -1 });
    expect(response('HTTP/1.0 200 OK\r\n\r\n')!.keepAlive).toBe(false);
    expect(response('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n')!.keepAlive).toBe(false);
    expect(response('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n')).toBeNull();
    expect(response('SSH-2.0-OpenSSH\r\n\r\n')).toBeNull();
  });
});

describe('ChunkedReader', () => {
  const body = '5;ext=1\r\nhello\r\n0\r\nX-Trailer: t\r\n\r\n';

  it('finds the end of a chunked body, trailers included, byte by byte or whole, and decodes it', () => {
    const whole = Buffer.from(`${body}NEXT`);
    const reader = new ChunkedReader();
    const parts: Buffer[] = [];
    expect(reader.read(whole, 0, parts)).toBe(body.length);
    expect(reader.done).toBe(true);
    expect(Buffer.concat(parts).toString()).toBe('hello');
    const slow = new ChunkedReader();
    for (let i = 0; i < body.length; i++) {
      const end = slow.read(whole.subarray(i, i + 1), 0);
      expect(slow.done, `byte ${i}`).toBe(i === body.length - 1);
      expect(end).toBe(1);
    }
  });

  it('refuses what is not chunked framing', () => {
    for (const bad of ['x\r\n', '5\nhello\r\n', '5\r\nhelloX\r\n', '0\r\n folded\r\n\r\n', '1234567890abc\r\n', ';\r\n']) {
      const reader = new ChunkedReader();
      expect(reader.read(Buffer.from(bad), 0), JSON.stringify(bad)).toBe(-1);
      expect(reader.failed).toBe(true);
    }
  });
});

describe('trimOws', () => {
  it('takes spaces and tabs from both ends only, and nothing else', () => {
    expect(trimOws('Basic abc')).toBe('Basic abc');
    expect(trimOws(' \t Basic  abc\t ')).toBe('Basic  abc');
    expect(trimOws('\u00a0Basic abc\u00a0')).toBe('\u00a0Basic abc\u00a0'); // latin1 NBSP is not OWS
    expect(trimOws(' \t ')).toBe('');
    expect(trimOws('')).toBe('');
    expect(trimOws('x')).toBe('x');
    expect(trimOws('\vx\f')).toBe('\vx\f');
  });
});

describe('fieldNameEnd', () => {
  // The grammar it replaced, kept here as the reference.
  const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:/;
  const reference = (line: string) => {
    const m = FIELD_NAME.exec(line);
    return m === null ? -1 : m[0].length - 1;
  };

  it('finds the colon after a token exactly where the RFC 9110 token grammar does, for every character code', () => {
    const lines = ['Host: x', 'proxy-authorization:Basic a', ':x', '', 'Host', 'Ho st: x', 'Host : x', ' Host: x',
      'X-A_b.c~1|2`3^4%5$6#7!8&9*0+\'=: v', 'a:b:c'];
    for (let code = 0; code < 0x180; code++) {
      const c = String.fromCharCode(code);
      lines.push(`${c}: v`, `A${c}B: v`, `AB${c}`, `AB:${c}`);
    }
    for (const line of lines) expect(fieldNameEnd(line), JSON.stringify(line)).toBe(reference(line));
  });
});
