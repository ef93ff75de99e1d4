import { describe, expect, it } from 'vitest';
import { INCOMPLETE, NOT_CONNECT, readConnectHead } from './connect-head.js';
import { MAX_HEAD_BYTES, MAX_HEADER_LINES } from './http-message-head.js';

// The CONNECT head reader on its own: every way a head can arrive split, and what it refuses. The proxy's side of it
// (answers, tunnels, the hand-over to Node's HTTP server) is in http-proxy-connect.test.ts.

const read = (text: string) => readConnectHead(Buffer.from(text, 'latin1'));
const HEAD = 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nProxy-Authorization: Basic YTpi\r\n\r\n';

describe('readConnectHead', () => {
  it('reads the target, the credentials and the head\'s length, and leaves what follows to the tunnel', () => {
    const buf = Buffer.from(`${HEAD}\x16\x03\x01`, 'latin1');
    expect(readConnectHead(buf)).toEqual({ authority: 'example.com:443', authorization: 'Basic YTpi', length: HEAD.length });
    expect(read('CONNECT [::1]:8080 HTTP/1.0\r\n\r\n')).toEqual({ authority: '[::1]:8080', authorization: undefined, length: 31 });
  });

  it('is incomplete at every split of a head, whatever the split', () => {
    for (let i = 1; i < HEAD.length; i++) expect(read(HEAD.slice(0, i)), HEAD.slice(0, i)).toBe(INCOMPLETE);
  });

  it('leaves anything that does not start with "CONNECT " to Node\'s server, as soon as one byte differs', () => {
    for (const text of ['G', 'GET http://x/ HTTP/1.1\r\n\r\n', 'CONNECTED', 'connect x:1 HTTP/1.1\r\n\r\n', '\r\nCONNECT x:1 HTTP/1.1\r\n\r\n', 'CONNECT\t']) {
      expect(read(text), JSON.stringify(text)).toBe(NOT_CONNECT);
    }
  });

  it('takes Proxy-Authorization in any case of its name, without the spaces around its value, and the first of two', () => {
    expect(read('CONNECT x:1 HTTP/1.1\r\nproxy-AUTHORIZATION:  \tBasic abc \t\r\nProxy-Authorization: Basic other\r\n\r\n'))
      .toMatchObject({ authorization: 'Basic abc' });
    // A look-alike name is not it.
    expect(read('CONNECT x:1 HTTP/1.1\r\nProxy-Authorizations: Basic abc\r\n\r\n')).toMatchObject({ authorization: undefined });
  });

  it('answers 400 to malformed heads', () => {
    const bad = [
      'CONNECT  x:1 HTTP/1.1', // two spaces
      'CONNECT x:1', // no version
      'CONNECT x:1 HTTP/2.0',
      'CONNECT x:1 HTTP/1.1 ', // trailing space
      'CONNECT x\x01y:1 HTTP/1.1', // a control character in the target
      'CONNECT x:1 HTTP/1.1\r\nProxy-Authorization : Basic abc', // space before the colon
      'CONNECT x:1 HTTP/1.1\r\n Folded: value', // obs-fold
      'CONNECT x:1 HTTP/1.1\r\nNo-Colon',
      'CONNECT x:1 HTTP/1.1\r\n: no name',
      'CONNECT x:1 HTTP/1.1\r\nX: a\rb', // a lone CR
      'CONNECT x:1 HTTP/1.1\r\nX: a\nY: b', // a bare LF
      'CONNECT x:1 HTTP/1.1\r\nX: a\x00b',
      'CONNECT x:1 HTTP/1.1\r\nX\x7f: a',
    ];
    for (const head of bad) expect(read(`${head}\r\n\r\n`), JSON.stringify(head)).toBe(400);
  });

  it('answers 431 to a head past MAX_HEAD_BYTES, ended or not, or with more than MAX_HEADER_LINES headers', () => {
    const big = `CONNECT x:1 HTTP/1.1\r\nX: ${'a'.repeat(MAX_HEAD_BYTES)}`;
    expect(read(big)).toBe(431);
    expect(read(`${big}\r\n\r\n`)).toBe(431);
    const justFits = `CONNECT x:1 HTTP/1.1\r\nX: `;
    const fill = 'a'.repeat(MAX_HEAD_BYTES - justFits.length - 4);
    expect(read(`${justFits}${fill}\r\n\r\n`)).toMatchObject({ length: MAX_HEAD_BYTES });
    expect(read(`${justFits}${fill}a\r\n\r\n`)).toBe(431);
    const lines = (n: number) => `CONNECT x:1 HTTP/1.1\r\n${'X: a\r\n'.repeat(n)}\r\n`;
    expect(read(lines(MAX_HEADER_LINES))).toMatchObject({ authority: 'x:1' });
    expect(read(lines(MAX_HEADER_LINES + 1))).toBe(431);
  });
});
