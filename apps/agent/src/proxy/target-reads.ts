import { Socket } from 'node:net';
import type { OnReadOpts } from 'node:net';

// How a tunnel's target connection reads (issue 31, item 1: CPU per GB relayed). By default Node reads every chunk
// into a new 64 KiB buffer: the kernel copies into memory the CPU has not touched lately, and the buffers come and go
// through the garbage collector. A relay whose chunk leaves within the same call can read into one buffer again and
// again, which stays in the CPU's cache: a plain Node relay spent 0.44 CPU s per GB that way against 0.64-0.66
// (bench/BENCHMARKS.md, 2026-12-07). Node's `onread` option does that, with two rules kept here:
//
// - Between bulk reads a connection reads into one buffer shared by every target connection, and what it read is
//   copied out before the callback returns (small reads: the copy is cheap), so an idle tunnel holds no buffer.
// - A read that fills the buffer starts bulk: the connection gets a buffer of its own (MAX_OWNERS at a time) and its
//   chunks are written to the client straight from it. When such a write completes within the call (the client's socket took it all), the
//   same buffer is read into again; when it does not (the client is slow, or not a plain socket), the buffer now
//   belongs to that write and the next read gets another. A short read ends bulk and the buffer goes back to a pool.
//
// Node calls `callback` with the socket as `this` and the `buffer` function right after it, for the same socket:
// the callback leaves its choice of the next buffer in `next`.

const READ_SIZE = 64 * 1024;
/** Private buffers kept for the next bulk reader (more would only hold memory while every tunnel is idle). */
const POOL_SIZE = 8;
/**
 * Connections reading into buffers of their own at most (4 MiB): one that went idle right after a full read keeps
 * its buffer until it reads again, so without a bound thousands of idle tunnels could hold 64 KiB each. Beyond it a
 * bulk reader stays on the shared buffer and its chunks are copied, as Node's own reads would cost.
 */
export const MAX_OWNERS = 64;

const shared = Buffer.allocUnsafeSlow(READ_SIZE);
const pool: Buffer[] = [];
let next: Buffer = shared;

const kDeliver = Symbol('cellport.deliver');
const kEarly = Symbol('cellport.early');
const kPeer = Symbol('cellport.read-peer');
/** Reads into a buffer of its own now (counted in `owners`); kWatched: its 'close' gives that count back. */
const kOwner = Symbol('cellport.read-owner');
const kWatched = Symbol('cellport.read-watched');
/** What the relay does with a chunk read (splice.ts sets it); until then the chunks are held in kEarly. */
export type Deliver = (this: Socket, chunk: Buffer) => void;
type Reading = Socket & {
  [kDeliver]?: Deliver; [kEarly]?: Buffer[]; [kPeer]?: unknown; [kOwner]?: boolean; [kWatched]?: boolean;
};
let owners = 0;

/** Connections reading into buffers of their own now (for tests). */
export function bulkReaders(): number {
  return owners;
}

function disown(socket: Reading): void {
  if (socket[kOwner] !== true) return;
  socket[kOwner] = false;
  owners--;
}
function onOwnerClose(this: Reading): void {
  disown(this);
}

function takeBuffer(): Buffer {
  return pool.pop() ?? Buffer.allocUnsafeSlow(READ_SIZE);
}

function giveBack(buf: Buffer): void {
  if (pool.length < POOL_SIZE) pool.push(buf);
}

/** Whether `chunk`, just written to `peer`, may still be read by the write (it did not complete within the call). */
function heldByWrite(peer: unknown): boolean {
  return !(peer instanceof Socket) || peer.writableLength > 0 || peer.destroyed;
}

function nextBuffer(): Buffer {
  const buf = next;
  next = shared;
  return buf;
}

function onTargetRead(this: Reading, n: number, buf: Buffer): boolean {
  const deliver = this[kDeliver];
  if (buf === shared) {
    // Copied out: the shared buffer is read into by the next connection that reads.
    const chunk = Buffer.from(buf.subarray(0, n));
    if (deliver === undefined) hold(this, chunk);
    else deliver.call(this, chunk);
    if (n === READ_SIZE && owners < MAX_OWNERS) {
      next = takeBuffer();
      owners++;
      this[kOwner] = true;
      if (this[kWatched] !== true) {
        this[kWatched] = true;
        this.once('close', onOwnerClose);
      }
    }
    return true;
  }
  const chunk = buf.subarray(0, n);
  let held = true;
  if (deliver === undefined) hold(this, chunk);
  else {
    deliver.call(this, chunk);
    held = heldByWrite(this[kPeer]);
  }
  if (n < READ_SIZE / 2) {
    if (!held) giveBack(buf);
    disown(this);
  } else {
    next = held ? takeBuffer() : buf;
  }
  return true;
}

/** Bytes the target sent before the tunnel was joined (a server that speaks first): kept, and reading pauses. */
function hold(socket: Reading, chunk: Buffer): void {
  (socket[kEarly] ??= []).push(chunk);
  socket.pause();
}

/** `onread` for net.connect: the target connection reads as described above. */
export const TARGET_READS: OnReadOpts = { buffer: nextBuffer, callback: onTargetRead as OnReadOpts['callback'] };

/** Whether bytes read from `socket` wait to be delivered (a server spoke before the relay was joined). */
export function hasHeldReads(socket: Socket): boolean {
  return ((socket as Reading)[kEarly]?.length ?? 0) > 0;
}

/**
 * Joins a target connection that reads with TARGET_READS to the relay: `deliver` gets each chunk from now on (with
 * the socket as `this`), `peer` is where it writes them. Returns what arrived before, in order (empty if nothing, and
 * always for a socket made without TARGET_READS, whose chunks come as 'data').
 */
export function deliverReads(socket: Socket, peer: unknown, deliver: Deliver): Buffer[] {
  const s = socket as Reading;
  s[kDeliver] = deliver;
  s[kPeer] = peer;
  const early = s[kEarly] ?? [];
  s[kEarly] = undefined;
  return early;
}
