import type { Socket } from 'node:net';
import type { TrafficSample } from './types.js';

// Per-port traffic, counted on the customer's side of the proxy: bytesOut is what the customer's socket sent us
// (its bytesRead), bytesIn what we sent the customer (its bytesWritten), handshakes and headers included. The kernel-
// facing counters Node keeps on every socket are read only when a connection closes and when the runtime collects,
// so nothing is counted per chunk and nothing sits on the data path.

/** Traffic samples are aligned to this (HOST_PROTOCOL.trafficIntervalMinutes). */
export const TRAFFIC_INTERVAL_MS = 5 * 60_000;

/** What the meter needs of a connection (the proxy's own connection record carries these fields). */
export interface MeteredConnection {
  /** The customer port the bytes belong to. */
  portId: string | null;
  readonly socket: Socket;
  /** Socket counters already counted. */
  meteredRead: number;
  meteredWritten: number;
}

interface Bucket { portId: string; intervalStart: number; bytesIn: number; bytesOut: number }

export class TrafficMeter {
  private readonly open = new Set<MeteredConnection>();
  private readonly buckets = new Map<string, Bucket>();
  /**
   * Called (synchronously) whenever bytes are counted, so the runtime can write closed connections' bytes to disk
   * at once (drainCounted) and a crash loses only what connections still open moved.
   */
  onCounted: (() => void) | null = null;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Starts counting a connection for its portId, from the socket's first byte (so its handshake counts too). */
  track(conn: MeteredConnection): void {
    conn.meteredRead = 0;
    conn.meteredWritten = 0;
    this.open.add(conn);
  }

  /** Counts what the connection moved so far for its current port (call before moving it to another port). */
  flush(conn: MeteredConnection, now: number = this.clock()): void {
    const socket = conn.socket;
    const read = socket.bytesRead;
    // bytesWritten includes bytes still queued in the socket; after 'close' the queue is gone, so it is exact then.
    const written = socket.bytesWritten ?? conn.meteredWritten;
    const out = read - conn.meteredRead;
    const inn = written - conn.meteredWritten;
    conn.meteredRead = read;
    conn.meteredWritten = written;
    if ((out > 0 || inn > 0) && conn.portId !== null) this.add(conn.portId, now, inn, out);
  }

  /** Counts the rest and stops counting (call from the socket's 'close'). */
  untrack(conn: MeteredConnection): void {
    if (!this.open.delete(conn)) return;
    this.flush(conn);
  }

  /** Connections being counted. */
  get size(): number {
    return this.open.size;
  }

  /**
   * Everything counted since the last collect, per port and 5-minute interval, including what connections that are
   * still open moved so far. Each byte is returned by exactly one collect.
   */
  collect(now: number = this.clock()): TrafficSample[] {
    for (const conn of this.open) this.flush(conn, now);
    return this.drainCounted();
  }

  /** What was counted so far (closed connections, and open ones up to their last flush), without reading open sockets. */
  drainCounted(): TrafficSample[] {
    const samples: TrafficSample[] = [];
    for (const b of this.buckets.values()) {
      samples.push({ portId: b.portId, intervalStart: b.intervalStart, bytesIn: BigInt(b.bytesIn), bytesOut: BigInt(b.bytesOut) });
    }
    this.buckets.clear();
    return samples;
  }

  private add(portId: string, now: number, bytesIn: number, bytesOut: number): void {
    const intervalStart = now - (now % TRAFFIC_INTERVAL_MS);
    const key = `${portId}\n${intervalStart}`;
    const bucket = this.buckets.get(key);
    if (bucket) {
      bucket.bytesIn += bytesIn;
      bucket.bytesOut += bytesOut;
    } else {
      this.buckets.set(key, { portId, intervalStart, bytesIn, bytesOut });
    }
    this.onCounted?.();
  }
}
