import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Socket } from 'node:net';
import { buildOnHost } from '../fingerprint/host-build.js';
import { nodeHeaders } from '../fingerprint/preset-socket.js';
import { hasHeldReads } from '../proxy/target-reads.js';

// Two sockets joined in the kernel (kernel-relay.c, decision 050): after a relayed connection's header, the gateway
// hands the customer's socket and the pooled link connection to a native thread that moves their bytes with splice(),
// so no byte is copied into the process and no JavaScript runs per chunk. A connection that cannot be handed over as
// it is (TLS, bytes read or written but not yet passed on) stays with the JavaScript relay (proxy/splice.ts).

interface Addon {
  start(onEnd: (id: number, aToB: number, bToA: number, error: string) => void): void;
  join(fdA: number, fdB: number): number;
  abort(id: number): void;
  bytes(id: number): [number, number] | null;
  held(id: number): [number, number] | null;
  spareBytes(): number;
}

/** How a relay ended: the bytes each way and, when it failed, the errno's name ('' for a clean end). */
export interface RelayEnd { aToB: number; bToA: number; error: string }

interface Joined { a: Socket; b: Socket; onEnd: ((end: RelayEnd) => void) | undefined }

const kRelay = Symbol('cellport.kernel-relay');
/** Node's handle under a net.Socket, as far as the relay uses it (its descriptor, and its reads started or stopped). */
interface Handle { fd?: number; reading?: boolean; readStop?(): number; readStart?(): number }
type Handed = Socket & { _handle?: Handle | null; [kRelay]?: { id: number; side: 0 | 1; relay: KernelRelay } };

/** Instead of closing a handed-over socket's descriptor under the relay thread: end the relay, which then closes both. */
function destroyRelayed(this: Handed): Handed {
  const joined = this[kRelay];
  if (joined) joined.relay.abortRelay(joined.id);
  return this;
}

export class KernelRelay {
  private readonly joined = new Map<number, Joined>();

  constructor(private readonly addon: Addon) {
    addon.start((id, aToB, bToA, error) => this.ended(id, { aToB, bToA, error }));
  }

  /**
   * Relays `a` and `b` in the kernel until both have ended (half-close travels) or one fails, then destroys both; their
   * 'close' comes then, as with the JavaScript relay. Destroying either before that ends the relay (both are shut down).
   * False, with nothing changed, when either socket cannot be handed over now: not plain TCP, still connecting or
   * ended, reading, or holding bytes read or written that have not gone on.
   */
  join(a: Socket, b: Socket, onEnd?: (end: RelayEnd) => void): boolean {
    const fdA = handOverable(a);
    const fdB = handOverable(b);
    if (fdA === null || fdB === null || fdA === fdB) return false;
    let id: number;
    try {
      id = this.addon.join(fdA, fdB);
    } catch {
      return false;
    }
    this.joined.set(id, { a, b, onEnd });
    for (const [socket, side] of [[a, 0], [b, 1]] as const) {
      const handed = socket as Handed;
      handed[kRelay] = { id, side, relay: this };
      handed.destroy = destroyRelayed as Socket['destroy'];
    }
    return true;
  }

  /**
   * join() for two sockets that may be reading now (a proxy's tunnel: the client's socket read its request, the
   * target's its first bytes): their reads are stopped first, so what arrives next waits in the kernel for the relay
   * thread, and started again when they cannot be joined (the caller relays them in JavaScript then).
   */
  joinReading(a: Socket, b: Socket, onEnd?: (end: RelayEnd) => void): boolean {
    const stopped = [a, b].filter(stopReading);
    if (this.join(a, b, onEnd)) return true;
    for (const socket of stopped) startReading(socket);
    return false;
  }

  /** Bytes relayed in the kernel so far from `socket` (read) and to it (written); null when it is not relayed here. */
  bytes(socket: Socket): { read: number; written: number } | null {
    const counts = this.fromAndTo(socket, (id) => this.addon.bytes(id));
    return counts && { read: counts[0], written: counts[1] };
  }

  /** For the tests: bytes from `socket` waiting in the relay's pipe now, and bytes to it; null when not relayed here. */
  held(socket: Socket): { from: number; to: number } | null {
    const counts = this.fromAndTo(socket, (id) => this.addon.held(id));
    return counts && { from: counts[0], to: counts[1] };
  }

  /** A relay's [a to b, b to a] counter turned to `socket`'s side: [from it, to it]; null when not relayed here. */
  private fromAndTo(socket: Socket, read: (id: number) => [number, number] | null): [number, number] | null {
    const joined = (socket as Handed)[kRelay];
    const both = joined && read(joined.id);
    if (!joined || !both) return null;
    return joined.side === 0 ? both : [both[1], both[0]];
  }

  /** For the tests: bytes left in the thread's pooled pipes (must be 0: a relay's bytes never reach the next one). */
  spareBytes(): number {
    return this.addon.spareBytes();
  }

  /** @internal destroyRelayed's way in. */
  abortRelay(id: number): void {
    this.addon.abort(id);
  }

  private ended(id: number, end: RelayEnd): void {
    const joined = this.joined.get(id);
    if (!joined) return;
    this.joined.delete(id);
    for (const socket of [joined.a, joined.b]) {
      const handed = socket as Handed;
      delete (handed as { destroy?: unknown }).destroy;
      handed[kRelay] = undefined;
    }
    joined.onEnd?.(end);
    for (const socket of [joined.a, joined.b]) socket.destroy();
  }
}

/** Stops the handle's reads (what Node's own pause() does for a socket with `onread`); true when it was reading. */
function stopReading(socket: Socket): boolean {
  const handle = (socket as Handed)._handle;
  if (!handle?.reading || !handle.readStop) return false;
  handle.reading = false;
  handle.readStop();
  return true;
}

function startReading(socket: Socket): void {
  const handle = (socket as Handed)._handle;
  if (!handle || handle.reading || socket.destroyed || !handle.readStart) return;
  handle.reading = true;
  handle.readStart();
}

/** The socket's descriptor when the relay thread can take it over now, else null. */
function handOverable(socket: Socket): number | null {
  // Exactly a net.Socket: a TLS socket (a subclass) decrypts in the process, so its descriptor carries no plain bytes.
  if (Object.getPrototypeOf(socket) !== Socket.prototype) return null;
  const s = socket as Handed;
  if (s[kRelay] || s.destroyed || s.connecting || s.readableEnded || s.writableEnded) return null;
  if (s.readableLength > 0 || s.writableLength > 0 || hasHeldReads(s)) return null;
  const handle = s._handle;
  if (!handle || handle.reading || typeof handle.fd !== 'number' || handle.fd < 0) return null;
  return handle.fd;
}

let loaded: Promise<KernelRelay> | null = null;

/**
 * kernelRelay(), or null when it cannot be built here, `unavailable` told why: the caller relays in JavaScript then
 * (the agent and the gateway by default, the benches as they do).
 */
export function kernelRelayOrNull(dataDir: string, unavailable: (reason: string) => void): Promise<KernelRelay | null> {
  return kernelRelay(dataDir).catch((err: unknown) => {
    unavailable(err instanceof Error ? err.message : String(err));
    return null;
  });
}

/**
 * The relay, built (once per source version, into `<dataDir>/fingerprint/`, as the agent's other C parts) and
 * loaded (once per process). Rejects with what is missing when it cannot be built here: the caller relays in
 * JavaScript then.
 */
export function kernelRelay(dataDir: string): Promise<KernelRelay> {
  loaded ??= (async () => {
    const headers = nodeHeaders();
    if (!existsSync(join(headers, 'node_api.h'))) throw new Error(`the kernel relay needs Node's headers (node_api.h), missing in ${headers}`);
    const addon = await buildOnHost(dataDir, 'kernel-relay.c', 'kernel-relay', '.node', ['-shared', '-fPIC', `-I${headers}`],
      `a C compiler and Node's headers in ${headers}`);
    return new KernelRelay(createRequire(import.meta.url)(addon) as Addon);
  })();
  loaded.catch(() => { loaded = null; });
  return loaded;
}
