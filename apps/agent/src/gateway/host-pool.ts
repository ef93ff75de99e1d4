import type { Socket } from 'node:net';

// A host's pooled link connections at the gateway (link/pool-protocol.ts, decision 047): the idle ones, handed out one
// per customer, oldest first; the customers who wait for one while the pool is empty; and the taken ones, which end
// with the link they were opened for (a replaced, fenced or expired link takes its customers down, as its streams do).

export class HostPool {
  /** Idle connections, in the order they came, with the listener that forgets one that closes while idle. */
  private readonly idle = new Map<Socket, () => void>();
  private readonly waiters: Array<(socket: Socket | null) => void> = [];
  private readonly taken = new Set<Socket>();
  private closed = false;
  /** Whether the agent has ever opened a pooled connection for this link (an agent without a pool never does). */
  private offered = false;

  get idleCount(): number {
    return this.idle.size;
  }

  /** A newly opened pooled connection: to the first customer waiting, or idle until one comes. */
  add(socket: Socket): void {
    if (this.closed) return void socket.destroy();
    this.offered = true;
    socket.on('error', () => {});
    const waiter = this.waiters.shift();
    if (waiter) return this.give(socket, waiter);
    const forget = () => this.idle.delete(socket);
    this.idle.set(socket, forget);
    socket.once('close', forget);
  }

  /**
   * An idle connection now, or the next one to open within `waitMs`; null when none comes in time. A link whose agent
   * has opened none (an agent without a pool, or one whose pool is not up yet) is not waited for.
   */
  take(waitMs: number): Promise<Socket | null> {
    for (const [socket, forget] of this.idle) {
      this.idle.delete(socket);
      socket.removeListener('close', forget);
      if (!socket.destroyed) return Promise.resolve(this.hold(socket));
    }
    if (this.closed || waitMs <= 0 || !this.offered) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter = (socket: Socket | null) => { clearTimeout(timer); resolve(socket); };
      const timer = setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve(null);
      }, waitMs);
      this.waiters.push(waiter);
    });
  }

  /** Ends every connection of this pool, idle and taken, and sends the waiting customers elsewhere. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter(null);
    for (const socket of [...this.idle.keys(), ...this.taken]) socket.destroy();
    this.idle.clear();
    this.taken.clear();
  }

  private give(socket: Socket, waiter: (socket: Socket | null) => void): void {
    waiter(this.hold(socket));
  }

  private hold(socket: Socket): Socket {
    this.taken.add(socket);
    socket.once('close', () => this.taken.delete(socket));
    return socket;
  }
}
