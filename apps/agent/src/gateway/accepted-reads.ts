import { Socket } from 'node:net';
import { deliverReads, TARGET_READS } from '../proxy/target-reads.js';

// The gateway's relayed sockets read into reused buffers (issue 31 item 2: gateway CPU per GB). Both sockets of a
// relayed connection are accepted ones (a customer's, a pooled link connection), and Node's servers give an accepted
// socket no `onread`: every read lands in a new 64 KiB buffer, which the kernel fills in memory the CPU has not
// touched lately and the garbage collector then takes back. A socket made over the accepted one's handle with
// TARGET_READS (proxy/target-reads.ts) reads as the agent's target connections do, and splice() takes its chunks
// from the read's callback. Measured: the gateway's CPU per GB relayed 0.35-0.50 s before, 0.20-0.22 s with it; the
// price is a second socket object per accepted connection, about 7 µs each, so ~15 µs of a tunnel's ~200 at the
// gateway (bench/BENCHMARKS.md, 2026-12-07 04:02).

type Handled = Socket & { _handle: unknown };

/**
 * `raw`, paused with nothing of its bytes left unread, as a socket over the same connection that reads into reused
 * buffers, paused; `raw` is destroyed without its connection (its server stops counting it). A socket that is not a
 * plain TCP one (TLS decrypts in Node), or holds bytes not read yet, is returned as it is.
 */
export function withReusedReads(raw: Socket): Socket {
  const handled = raw as Handled;
  if (raw.constructor !== Socket || !handled._handle || raw.readableLength > 0 || raw.readableEnded) return raw;
  const handle = handled._handle;
  handled._handle = null;
  raw.destroy();
  // `handle` is not in Node's types for the constructor, but it is how Node's own servers make accepted sockets.
  const options = { handle, onread: TARGET_READS, allowHalfOpen: raw.allowHalfOpen, readable: true, writable: true, pauseOnCreate: true };
  return new Socket(options as ConstructorParameters<typeof Socket>[0]);
}

/**
 * `read` gets what `socket` sends, whether it comes as 'data' events or, from a socket made by withReusedReads, as
 * the read's callback (with what it read before). A chunk given to `read` stays valid: without a relay peer, the
 * buffer it was read into is not read into again. Returns what stops the 'data' events (splice() takes the callback).
 */
export function readChunks(socket: Socket, read: (chunk: Buffer) => void): () => void {
  socket.on('data', read);
  for (const chunk of deliverReads(socket, null, read)) read(chunk);
  return () => socket.removeListener('data', read);
}
