import type { Socket } from 'node:net';
import type { ProxyKind } from '@cellport/shared/schemas/gateway-protocol';
import { readChunks } from './accepted-reads.js';

// What a customer gets from the gateway when the host of the port they reached has no link right now: an HTTP proxy
// port answers 502 with a sentence that says what to do; a SOCKS5 port goes through the handshake (it must, to be
// able to answer at all) and replies 0x04, host unreachable, to the request. Either way the connection then closes.

export const NOT_CONNECTED = 'The proxy host of this port is not connected to the gateway right now. Try again in a few seconds; if it lasts, contact support.';

const HTTP_502 = Buffer.from(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n`
  + `Content-Length: ${Buffer.byteLength(NOT_CONNECTED) + 1}\r\n\r\n${NOT_CONNECTED}\n`);
const SOCKS_HOST_UNREACHABLE = Buffer.from([5, 0x04, 0, 1, 0, 0, 0, 0, 0, 0]);
/** A refusal is over after this, whatever the client does. */
const REFUSAL_TIMEOUT_MS = 10_000;

export function refuseCustomer(socket: Socket, kind: ProxyKind): void {
  socket.on('error', () => {});
  socket.setTimeout(REFUSAL_TIMEOUT_MS, () => socket.destroy());
  if (kind === 'http') {
    // Answer once the request arrives, so the client reads it as the answer to its request.
    let answered = false;
    readChunks(socket, () => {
      if (answered) return;
      answered = true;
      socket.end(HTTP_502);
    });
    socket.resume();
    return;
  }
  let buf = Buffer.alloc(0);
  let stage: 'greeting' | 'auth' | 'request' | 'answered' = 'greeting';
  const onData = (chunk: Buffer) => {
    if (stage === 'answered') return;
    buf = Buffer.concat([buf, chunk]);
    if (buf.length > 1024) return socket.destroy();
    for (;;) {
      if (stage === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + buf[1]!) return;
        if (buf[0] !== 5) return socket.destroy();
        const methods = buf.subarray(2, 2 + buf[1]!);
        buf = buf.subarray(2 + methods.length);
        // Whichever method the client offers: the request's reply is what says why.
        const method = methods.includes(0x00) ? 0x00 : methods.includes(0x02) ? 0x02 : 0xff;
        socket.write(Buffer.from([5, method]));
        if (method === 0xff) return void socket.end();
        stage = method === 0x02 ? 'auth' : 'request';
      } else if (stage === 'auth') {
        if (buf.length < 2 || buf.length < 3 + buf[1]! || buf.length < 3 + buf[1]! + buf[2 + buf[1]!]!) return;
        buf = buf.subarray(3 + buf[1]! + buf[2 + buf[1]!]!);
        socket.write(Buffer.from([1, 0]));
        stage = 'request';
      } else {
        if (buf.length < 4) return;
        stage = 'answered';
        socket.end(SOCKS_HOST_UNREACHABLE);
        return;
      }
    }
  };
  readChunks(socket, onData);
  socket.resume();
}
