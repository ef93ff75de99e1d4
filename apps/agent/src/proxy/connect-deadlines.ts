import { performance } from 'node:perf_hooks';

// The connect timeouts of a modem's target connections, in one list under one timer (issue 31, item 1). A socket's
// own setTimeout cost every new tunnel a Timeout, a bound function, an insertion into Node's timer lists and its
// removal once connected. Every connection of a modem waits the same connectTimeoutMs, so deadlines are added in the
// order they fall due: the list is a queue (linked through the waiting records themselves, so a connection that
// connects leaves it at once and holds nothing), and one timer, armed for its head, serves all of them.

/** A connection waiting to connect: linked into the list while it waits. */
export interface Waiting {
  deadline: number;
  prevWaiting: Waiting | null;
  nextWaiting: Waiting | null;
  /** Whether it is in a list now. */
  waiting: boolean;
}

/** A monotonic clock: deadlines stay in the order they were added whatever the wall clock does. */
function monotonicNow(): number {
  return performance.now();
}

export class ConnectDeadlines<T extends Waiting> {
  private head: T | null = null;
  private tail: T | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly fire = (): void => this.expire();

  /** `expired` is called for each record whose time ran out (already out of the list). */
  constructor(private readonly ms: number, private readonly expired: (record: T) => void,
    private readonly clock: () => number = monotonicNow) {}

  /** Starts the record's wait of `ms` from now. */
  add(record: T): void {
    record.deadline = this.clock() + this.ms;
    record.prevWaiting = this.tail;
    record.nextWaiting = null;
    record.waiting = true;
    if (this.tail === null) this.head = record;
    else this.tail.nextWaiting = record;
    this.tail = record;
    if (this.timer === null) this.arm(this.ms);
  }

  /** Ends the record's wait (connected, failed or gone); nothing if it is not waiting. */
  remove(record: T): void {
    if (!record.waiting) return;
    record.waiting = false;
    const { prevWaiting: prev, nextWaiting: next } = record;
    if (prev === null) this.head = next as T | null;
    else prev.nextWaiting = next;
    if (next === null) this.tail = prev as T | null;
    else next.prevWaiting = prev;
    record.prevWaiting = null;
    record.nextWaiting = null;
    // An empty list keeps its timer until it fires (it then finds nothing): re-arming per connection is what this saves.
  }

  /** Records waiting now (for tests). */
  get size(): number {
    let n = 0;
    for (let r = this.head; r !== null; r = r.nextWaiting as T | null) n++;
    return n;
  }

  /** Drops every wait and the timer (the proxy closes: its sockets go with it). */
  clear(): void {
    while (this.head !== null) this.remove(this.head);
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(ms: number): void {
    // Unref'd, as a socket's own timeout is: a pending connect does not keep the process alive by itself.
    this.timer = setTimeout(this.fire, ms);
    this.timer.unref();
  }

  private expire(): void {
    this.timer = null;
    const now = this.clock();
    while (this.head !== null && this.head.deadline <= now) {
      const record = this.head;
      this.remove(record);
      this.expired(record);
    }
    if (this.head !== null) this.arm(Math.max(1, this.head.deadline - now));
  }
}
