import type { Readable, Writable } from 'node:stream';
import type { PortAccess } from './types.js';

// Per-port bandwidth (issue 18, item 3; docs/decisions/030-per-port-limits.md). Each customer port has two token
// buckets, up (what its clients send) and down (what they receive), shared by every connection of the port over both
// protocols. The data path charges a bucket after forwarding each chunk; a bucket in debt pauses the reader, which is
// resumed when the debt is paid. Charging after the fact (a debt, not a reservation) keeps the data path free of
// timers and buffers: a chunk is never split or held, and the rate over any stretch of seconds is the cap within one
// chunk per connection. One timer per port at most, armed only while a reader waits.

/** How much a bucket may save up while idle: this many seconds at its rate (a short burst, then the rate). */
const BURST_SECONDS = 0.1;
/** The smallest saved-up amount, so a tiny rate still lets a whole TCP segment through at once. */
const MIN_BURST = 16 * 1024;

const kBucket = Symbol('cellport.rate.bucket');
const kSink = Symbol('cellport.rate.sink');
const kWaiting = Symbol('cellport.rate.waiting');
const kPortRate = Symbol('cellport.rate.port');

type Limited = Readable & { [kBucket]?: Bucket; [kSink]?: Writable; [kWaiting]?: boolean };
type ClientSocket = { [kPortRate]?: PortRateLimit };

class Bucket {
  /** Bytes per second; Infinity: none. */
  rate = Infinity;
  private tokens = 0;
  private last = 0;
  readonly waiting = new Set<Limited>();

  constructor(readonly port: PortRateLimit) {}

  setRate(rate: number, now: number): void {
    this.refill(now);
    this.rate = rate;
    // A new rate must not inherit a debt (or savings) measured in the old one.
    this.tokens = Math.min(Math.max(this.tokens, 0), this.burst());
  }

  private burst(): number {
    return Math.max(this.rate * BURST_SECONDS, MIN_BURST);
  }

  refill(now: number): void {
    if (this.rate !== Infinity) this.tokens = Math.min(this.burst(), this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }

  /** Takes n bytes' worth; true when the bucket is now in debt (the reader must wait). */
  take(n: number, now: number): boolean {
    if (this.rate === Infinity) return false;
    this.refill(now);
    this.tokens -= n;
    return this.tokens < 0;
  }

  /**
   * A datagram of n bytes may pass (policing: UDP cannot be paused, only dropped): true when the bucket is not in debt,
   * and then n is taken. Over any stretch the bytes let through are the rate's within one datagram and the burst.
   */
  admit(n: number, now: number): boolean {
    if (this.rate === Infinity) return true;
    this.refill(now);
    if (this.tokens < 0) return false;
    this.tokens -= n;
    return true;
  }

  /** Milliseconds until the debt is paid (0: it is). */
  wait(): number {
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.rate) * 1000);
  }

  release(): void {
    for (const source of this.waiting) {
      source[kWaiting] = false;
      const sink = source[kSink];
      // A reader that its sink's backpressure also paused is resumed by the sink's 'drain' instead.
      if (!source.destroyed && !(sink?.writableNeedDrain ?? false)) source.resume();
    }
    this.waiting.clear();
  }
}

/** One port's two buckets and the one timer that wakes their waiting readers. */
export class PortRateLimit {
  readonly up = new Bucket(this);
  readonly down = new Bucket(this);
  private timer: NodeJS.Timeout | null = null;
  private base = Infinity;
  private throttle = Infinity;
  private throttleUntil = 0;

  constructor(private readonly now: () => number = performanceNow, private readonly wallClock: () => number = Date.now) {}

  /** The rates a PortAccess's limits say: the lower of the bandwidth and a throttled quota's rate while it lasts. */
  setLimits(limits: PortAccess['limits']): void {
    this.base = limits?.bandwidthBytesPerSecond ?? Infinity;
    const quota = limits?.quota;
    this.throttle = quota?.state === 'throttled' ? quota.bytesPerSecond : Infinity;
    this.throttleUntil = quota?.state === 'throttled' ? Date.parse(quota.until) || 0 : 0;
    this.apply();
  }

  /** Bytes per second each direction may carry now (Infinity: no cap). */
  get rate(): number {
    return this.wallClock() < this.throttleUntil ? Math.min(this.base, this.throttle) : this.base;
  }

  private apply(): void {
    const rate = this.rate;
    if (rate === this.up.rate) return;
    const now = this.now();
    this.up.setRate(rate, now);
    this.down.setRate(rate, now);
    if (rate === Infinity) this.wake();
    else this.arm();
  }

  /** Whether a datagram of n bytes may pass now, upload (from the customer) or download; charged when it may. */
  admitDatagram(upload: boolean, n: number): boolean {
    this.liftEndedThrottle();
    return (upload ? this.up : this.down).admit(n, this.now());
  }

  private liftEndedThrottle(): void {
    // A throttle that ran out (the month ended, by this host's clock) lifts here, without a timer of its own.
    if (this.throttleUntil !== 0 && this.wallClock() >= this.throttleUntil) {
      this.throttleUntil = 0;
      this.apply();
    }
  }

  /** Charges n bytes read from `source`; pauses it while its bucket is in debt. */
  charge(source: Limited, bucket: Bucket, n: number): void {
    this.liftEndedThrottle();
    if (!bucket.take(n, this.now()) || source[kWaiting]) return;
    source[kWaiting] = true;
    source.pause();
    bucket.waiting.add(source);
    this.arm();
  }

  private arm(): void {
    if (this.timer !== null || (this.up.waiting.size === 0 && this.down.waiting.size === 0)) return;
    let ms = Infinity;
    if (this.up.waiting.size > 0) ms = this.up.wait();
    if (this.down.waiting.size > 0) ms = Math.min(ms, this.down.wait());
    this.timer = setTimeout(onTimer, Math.max(1, ms), this);
    this.timer.unref();
  }

  /** Resumes the readers whose debt is paid; re-arms for the others. */
  wake(): void {
    this.timer = null;
    const now = this.now();
    for (const bucket of [this.up, this.down]) {
      if (bucket.waiting.size === 0) continue;
      bucket.refill(now);
      if (bucket.wait() === 0) bucket.release();
    }
    this.arm();
  }

  /** Stops the timer and lets every waiting reader go (the port is gone; its connections are being closed). */
  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.up.release();
    this.down.release();
  }
}

function onTimer(port: PortRateLimit): void {
  port.wake();
}

function performanceNow(): number {
  return performance.now();
}

/** The limiters of one modem's ports, kept across rule changes (a port keeps its buckets while its limits change). */
export class PortRateLimits {
  private readonly ports = new Map<string, PortRateLimit>();

  constructor(private readonly now?: () => number, private readonly wallClock?: () => number) {}

  /** New rules: each port's limiter takes its limits; those of ports no longer listed are closed. */
  update(ports: readonly PortAccess[]): void {
    const seen = new Set<string>();
    for (const access of ports) {
      seen.add(access.id);
      let limit = this.ports.get(access.id);
      if (limit === undefined) this.ports.set(access.id, (limit = new PortRateLimit(this.now, this.wallClock)));
      limit.setLimits(access.limits);
    }
    for (const [id, limit] of this.ports) {
      if (!seen.has(id)) {
        limit.close();
        this.ports.delete(id);
      }
    }
  }

  get(portId: string): PortRateLimit | undefined {
    return this.ports.get(portId);
  }

  close(): void {
    for (const limit of this.ports.values()) limit.close();
    this.ports.clear();
  }
}

/** Marks a client socket as its port's (at admission): what it sends counts up, what it receives down. */
export function bindClient(socket: object, limit: PortRateLimit | undefined): void {
  (socket as ClientSocket)[kPortRate] = limit;
}

/**
 * Sets up `source` → `sink` for charging: `client` is the customer's socket (marked by bindClient), which is the
 * source for an upload and the sink's socket for a download. A connection of no port (not admitted) is not limited.
 */
export function limitFlow(source: Readable, sink: Writable, client: object | null | undefined, upload: boolean): void {
  const port = client ? (client as ClientSocket)[kPortRate] : undefined;
  const s = source as Limited;
  if (port === undefined) {
    s[kBucket] = undefined;
    return;
  }
  s[kBucket] = upload ? port.up : port.down;
  s[kSink] = sink;
}

/**
 * Sets up one direction of a forwarded HTTP message (relay.ts): the client's request body (the source's socket is the
 * client's: upload) or the target's response (the sink's socket is the client's: download).
 */
export function limitRelay(source: Readable, sink: Writable): void {
  const fromClient = (source as { socket?: ClientSocket | null }).socket;
  if (fromClient?.[kPortRate] !== undefined) limitFlow(source, sink, fromClient, true);
  else limitFlow(source, sink, (sink as { socket?: object | null }).socket, false);
}

/** After forwarding a chunk read from `source`: charges its bucket, if it has one. */
export function charge(source: Readable, n: number): void {
  const bucket = (source as Limited)[kBucket];
  if (bucket !== undefined) bucket.port.charge(source as Limited, bucket, n);
}

/** Whether a client socket's port caps its bandwidth now (a tariff's bandwidth, a throttled quota). */
export function isRateLimited(client: object): boolean {
  const port = (client as ClientSocket)[kPortRate];
  return port !== undefined && port.rate !== Infinity;
}

/** Whether a reader is paused by its bucket (a sink's 'drain' must not resume it). */
export function isThrottled(source: Readable): boolean {
  return (source as Limited)[kWaiting] === true;
}
