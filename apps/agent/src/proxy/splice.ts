import { Socket } from 'node:net';
import { ignore } from './connection.js';
import { charge, isThrottled, limitFlow } from './port-rate-limit.js';
import { deliverReads } from './target-reads.js';

// Joins a tunnel's two sockets. stream.pipeline, twice per tunnel, allocated an AbortController, a dozen closures
// and an end-of-stream watcher per direction: most of the ~18 KB an idle tunnel held and 7–10 % of the proxy's CPU
// (bench/BENCHMARKS.md, 2026-11-24). These handlers are module-level and find the other socket through a symbol, so a
// tunnel costs two listeners per event and no closures. Backpressure: a write that fills the peer's buffer pauses
// the reader until the peer drains. Half-close travels (an 'end' ends the peer), and a socket that closes without
// having been ended gracefully (a reset, a timeout, a cut by the proxy) takes its peer down with it. Each chunk is
// charged to the port's bandwidth bucket of its direction (port-rate-limit.ts), which pauses the reader while in debt.
// A side that reads into reused buffers (target-reads.ts: the agent's target connections, both of the gateway's relayed
// sockets) hands its chunks to onData as the read's callback.

const kPeer = Symbol('cellport.peer');
const kBursty = Symbol('cellport.bursty');
type Spliced = Socket & { [kPeer]?: Socket; [kBursty]?: true };

/**
 * How much a bursty reader (markBurstyReader) may leave unsent at its peer before it is paused: one turn's burst of
 * a gateway link stream fits (a link read is ≤ 64 KiB), and it stays well under the link's 1 MiB stream window.
 */
const BURST_BYTES = 256 * 1024;

/**
 * A chunk smaller than this that does not join a burst already held is written at once: it is interactive traffic
 * (a request, an echo, a keystroke), where waiting for the turn's end costs latency and saves no system call.
 */
const SMALL_CHUNK = 4 * 1024;

/**
 * Marks `reader` as one that hands over many small chunks in one turn of the event loop: a gateway link's HTTP/2
 * stream gives one chunk per DATA frame (≤ 16 KiB, often split further by the link's reads), so writing each at once
 * cost a write system call per chunk, 4–5 times the direct path's (bench/BENCHMARKS.md, "Gateway", 2026-12-06 dev).
 * Its chunks are written to the peer together when the turn ends (one writev, no copy), and backpressure pauses it at
 * BURST_BYTES unsent rather than at the peer's 16 KiB high-water mark, which a single frame would already reach.
 */
export function markBurstyReader(reader: Socket): void {
  (reader as Spliced)[kBursty] = true;
}

function uncork(socket: Socket): void {
  socket.uncork();
}

function onData(this: Spliced, chunk: Buffer): void {
  const peer = this[kPeer]!;
  if (this[kBursty]) {
    if (!peer.writableCorked && chunk.length >= SMALL_CHUNK) {
      peer.cork();
      setImmediate(uncork, peer);
    }
    peer.write(chunk);
    if (peer.writableLength > BURST_BYTES) this.pause();
  } else if (!peer.write(chunk)) {
    this.pause();
  }
  charge(this, chunk.length);
}
function onDrain(this: Spliced): void {
  const reader = this[kPeer]!;
  if (!isThrottled(reader)) reader.resume();
}
function onEnd(this: Spliced): void {
  const peer = this[kPeer]!;
  // A peer whose own FIN came already and that holds nothing unsent is closed outright: close() sends the FIN after
  // what the kernel still holds, as shutdown() would, and the socket is done either way. That saves the shutdown call,
  // its request and its callback's turn (one per tunnel whose target closes last). Not a stream that is no socket: a
  // gateway link's would be reset, not ended.
  if (peer.readableEnded && peer.writableLength === 0 && peer instanceof Socket) peer.destroy();
  else peer.end();
}
function onClose(this: Spliced): void {
  const peer = this[kPeer]!;
  // A peer we already ended is flushing the last bytes: let it finish (its idle timeout bounds it).
  if (!peer.writableEnded) peer.destroy();
}

/** Joins the customer's socket (`client`, what it sends is the port's upload) and the target's. */
export function splice(client: Socket, upstream: Socket): void {
  const a = client;
  const b = upstream;
  (a as Spliced)[kPeer] = b;
  (b as Spliced)[kPeer] = a;
  limitFlow(a, b, a, true);
  limitFlow(b, a, a, false);
  // A connection made with TARGET_READS (the dialer's targets, the gateway's relayed sockets) hands its chunks to onData
  // itself, not as 'data'.
  for (const chunk of deliverReads(a, b, onData)) onData.call(a as Spliced, chunk);
  for (const chunk of deliverReads(b, a, onData)) onData.call(b as Spliced, chunk);
  for (const s of [a, b]) {
    s.on('data', onData);
    s.on('drain', onDrain);
    s.on('end', onEnd);
    s.on('close', onClose);
    s.on('error', ignore);
    s.resume();
  }
}
