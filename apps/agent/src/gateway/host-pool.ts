import type { Socket } from 'node:net';

// A host's pooled link connections at the gateway (link/pool-protocol.ts, decision 047): the idle ones, handed out one
// per customer, oldest first, and the taken ones, which end with the link they were opened for (a replaced, fenced or
// expired link takes its customers down, as its streams do). A customer who finds none idle is not kept waiting for
// the next: the caller sends them over an HTTP/2 stream at once.

export class HostPool {
  /** Idle connections, in the order they came, with the listener that forgets one that closes while idle. */
  private readonly idle = new Map<Socket, () => void>();
  private readonly taken = new Set<Socket>();
  private closed = false;

  get idleCount(): number {
    return this.idle.size;
  }

  /** A newly opened pooled connection: idle until a customer takes it. */
  add(socket: Socket): void {
    if (this.closed) return void socket.destroy();
    socket.on('error', () => {});
    const forget = () => this.idle.delete(socket);
    this.idle.set(socket, forget);
    socket.once('close', forget);
  }

  /** The oldest idle connection, or null when none is idle now. */
  take(): Socket | null {
    for (const [socket, forget] of this.idle) {
      this.idle.delete(socket);
      socket.removeListener('close', forget);
      if (!socket.destroyed) return this.hold(socket);
    }
    return null;
  }

  /** Ends every connection of this pool, idle and taken. */
  close(): void {
    this.closed = true;
    for (const socket of [...this.idle.keys(), ...this.taken]) socket.destroy();
    this.idle.clear();
    this.taken.clear();
  }

  private hold(socket: Socket): Socket {
    this.taken.add(socket);
    socket.once('close', () => this.taken.delete(socket));
    return socket;
  }
}
