import type { Socket } from 'node:net';

// Kept-alive connections to targets for plain HTTP forwarding (decision 048): one pool per customer port (never
// shared between ports, issue 26), keyed by target address and port, newest first (LIFO: the connection least likely
// to have been closed by the target's own idle timer). It replaces Node's http.Agent on this path, whose per-request
// bookkeeping (its name, its free lists, its request queue and the ClientRequest around each use) was a tenth of the
// proxy's time per request (bench/BENCHMARKS.md). The forwarder (http-forwarder.ts) owns a connection while it carries
// an exchange; an idle one belongs to the pool, which drops it when it closes.

/** Opens a connection to address:port from the egress (with the port's fingerprint preset, when it has one). */
export type Dial = (address: string, port: number, done: (err: Error | null, socket?: Socket) => void) => void;

/** Idle connections kept per target (Node's agent kept 64 too). */
const MAX_FREE = 64;

const kPool = Symbol('cellport.pool');
const kKey = Symbol('cellport.pool.key');
type Pooled = Socket & { [kPool]?: UpstreamPool | null; [kKey]?: string };

function onIdleClose(this: Pooled): void {
  this[kPool]?.forget(this);
}

export class UpstreamPool {
  private readonly free = new Map<string, Pooled[]>();
  /** Connections carrying an exchange now (destroy() ends them too: the egress changed or the port went away). */
  private readonly busy = new Set<Socket>();
  private destroyed = false;

  constructor(readonly dial: Dial) {}

  /** An idle connection to address:port, now the caller's (null: none, dial one). */
  take(address: string, port: number): Socket | null {
    const list = this.free.get(key(address, port));
    if (list === undefined) return null;
    let socket: Pooled | undefined;
    while ((socket = list.pop()) !== undefined) {
      if (!socket.destroyed) break;
    }
    if (socket === undefined) return null;
    socket[kPool] = null;
    this.busy.add(socket);
    return socket;
  }

  /** Registers a connection the caller dialed and now carries an exchange on (destroy() reaches it too). */
  adopt(socket: Socket): void {
    if (this.destroyed) socket.destroy();
    else this.busy.add(socket);
  }

  /** A connection whose exchange ended cleanly: kept for the next request to address:port, or closed. */
  give(address: string, port: number, socket: Socket): void {
    this.busy.delete(socket);
    const k = key(address, port);
    let list = this.free.get(k);
    if (list === undefined) this.free.set(k, (list = []));
    if (this.destroyed || socket.destroyed || list.length >= MAX_FREE) {
      socket.destroy();
      return;
    }
    const pooled = socket as Pooled;
    if (pooled[kKey] === undefined) pooled.on('close', onIdleClose);
    pooled[kKey] = k;
    pooled[kPool] = this;
    list.push(pooled);
  }

  /** A connection the caller gives up (closed, or not reusable). */
  release(socket: Socket): void {
    this.busy.delete(socket);
  }

  /** An idle connection closed (the target's idle timeout, a reset): out of its list. */
  forget(socket: Pooled): void {
    const list = this.free.get(socket[kKey]!);
    const i = list?.indexOf(socket) ?? -1;
    if (i >= 0) list!.splice(i, 1);
    if (list?.length === 0) this.free.delete(socket[kKey]!);
    socket[kPool] = null;
  }

  /** Idle connections kept now (for tests). */
  get idleCount(): number {
    let n = 0;
    for (const list of this.free.values()) n += list.length;
    return n;
  }

  /** Closes every connection, idle or busy; later ones given or adopted are closed at once. */
  destroy(): void {
    this.destroyed = true;
    for (const list of this.free.values()) for (const socket of list) socket.destroy();
    this.free.clear();
    for (const socket of this.busy) socket.destroy();
    this.busy.clear();
  }
}

function key(address: string, port: number): string {
  return `${address}\n${port}`;
}
