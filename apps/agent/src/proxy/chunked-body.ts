// Where a chunked body ends (RFC 9112 §7.1), read as it streams by, so the forwarder can pass the bytes on as they came
// (no decoding and re-encoding) and still know when the message is over: the next request on a kept connection, or the
// upstream connection free for the next one, starts right after it. Strict, for a request's body is one customer's
// bytes on a connection the next request may share: hex sizes (with extensions after ';'), CRLF everywhere, trailer
// lines that do not start with whitespace; anything else is an error and the connection is closed.

const SIZE = 0;
const EXTENSION = 1;
const SIZE_LF = 2;
const DATA = 3;
const DATA_CR = 4;
const DATA_LF = 5;
const TRAILER_START = 6;
const TRAILER_LINE = 7;
const TRAILER_LF = 8;
const END_LF = 9;
const DONE = 10;
const ERROR = 11;

/** Longest chunk-size line (digits and extensions) and trailer line read; beyond them the body is refused. */
const MAX_LINE = 4096;
/** More hex digits than this would pass Number's exact integers. */
const MAX_DIGITS = 12;

export class ChunkedReader {
  private state = SIZE;
  private size = 0;
  private digits = 0;
  private line = 0;

  get done(): boolean {
    return this.state === DONE;
  }

  get failed(): boolean {
    return this.state === ERROR;
  }

  /**
   * Reads buf from `from`; the index just past the body's end when it ends in this buffer, else buf.length (or -1 on
   * a framing error). With `data`, the chunks' contents are pushed onto it (decoding, for an HTTP/1.0 client).
   */
  read(buf: Buffer, from: number, data: Buffer[] | null = null): number {
    let i = from;
    const n = buf.length;
    while (i < n) {
      switch (this.state) {
        case SIZE: {
          const c = buf[i]!;
          const v = hex(c);
          if (v >= 0) {
            if (++this.digits > MAX_DIGITS) return this.fail();
            this.size = this.size * 16 + v;
          } else if (this.digits === 0) {
            return this.fail();
          } else if (c === 0x3b /* ; */ || c === 0x20 || c === 0x09) {
            this.state = EXTENSION;
            this.line = 0;
          } else if (c === 0x0d) {
            this.state = SIZE_LF;
          } else {
            return this.fail();
          }
          i++;
          break;
        }
        case EXTENSION: {
          const c = buf[i]!;
          if (c === 0x0d) this.state = SIZE_LF;
          else if (c === 0x0a || (c < 0x20 && c !== 0x09) || c === 0x7f || ++this.line > MAX_LINE) return this.fail();
          i++;
          break;
        }
        case SIZE_LF:
          if (buf[i] !== 0x0a) return this.fail();
          i++;
          this.state = this.size === 0 ? TRAILER_START : DATA;
          break;
        case DATA: {
          const take = Math.min(this.size, n - i);
          if (data !== null) data.push(buf.subarray(i, i + take));
          this.size -= take;
          i += take;
          if (this.size === 0) this.state = DATA_CR;
          break;
        }
        case DATA_CR:
          if (buf[i] !== 0x0d) return this.fail();
          i++;
          this.state = DATA_LF;
          break;
        case DATA_LF:
          if (buf[i] !== 0x0a) return this.fail();
          i++;
          this.state = SIZE;
          this.digits = 0;
          break;
        case TRAILER_START: {
          const c = buf[i]!;
          i++;
          if (c === 0x0d) this.state = END_LF;
          else if (c === 0x20 || c === 0x09 || c === 0x0a) return this.fail(); // obs-fold or a bare LF
          else {
            this.state = TRAILER_LINE;
            this.line = 1;
          }
          break;
        }
        case TRAILER_LINE: {
          const c = buf[i]!;
          if (c === 0x0d) this.state = TRAILER_LF;
          else if (c === 0x0a || ++this.line > MAX_LINE) return this.fail();
          i++;
          break;
        }
        case TRAILER_LF:
          if (buf[i] !== 0x0a) return this.fail();
          i++;
          this.state = TRAILER_START;
          break;
        case END_LF:
          if (buf[i] !== 0x0a) return this.fail();
          this.state = DONE;
          return i + 1;
        default:
          return this.state === DONE ? from : -1;
      }
    }
    return n;
  }

  private fail(): number {
    this.state = ERROR;
    return -1;
  }
}

function hex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}
