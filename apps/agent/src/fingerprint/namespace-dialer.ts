import { closeSync } from 'node:fs';
import { isIP, Socket } from 'node:net';
import type { OnReadOpts, SocketConstructorOpts } from 'node:net';
import type { NamespaceSockets } from './namespace-socket.js';

// Connections made inside a preset's network namespace (docs/decisions/037-fingerprint-presets.md). A socket belongs
// to the namespace it was created in, whoever connects it later. The agent's thread makes each socket there itself
// (namespace-socket.c: enter the namespace, socket(), back, a few microseconds) and connects it like any other: the
// SYN leaves by the namespace's routes, sysctls and rules, and no other process, pool or hand-off lies on the
// connection's path. (Before, a Node child inside each namespace made the sockets and handed them over IPC,
// one per round trip: the bench's new connections were bound by that hand-off.)
//
// The sockets are made STASH at a time, per address family, on one entry into the namespace: its two setns (about
// 4 us the pair) are then paid once per STASH connections. An unconnected socket holds no port and no state beyond a
// descriptor; what it will send is decided at connect() by the namespace's routes, sysctls and rules, which are all in
// place before the dialer exists. The stash dies with the dialer: close() closes what is left, and a namespace that is
// rebuilt (or a port that changes preset: another namespace, another dialer) never receives an old socket.

/** Sockets made per entry into the namespace (and the most a dialer holds unused per family). */
export const STASH = 8;

export class DialError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export class NamespaceDialer {
  /** The namespace's descriptor, held while the dialer lives (the namespace outlives its name meanwhile). */
  private namespaceFd: number | null;
  /** Unconnected sockets made ahead, by family: taken from the end, refilled when empty. */
  private readonly stash: Record<4 | 6, number[]> = { 4: [], 6: [] };

  constructor(private readonly sockets: NamespaceSockets, readonly namespace: string) {
    this.namespaceFd = sockets.openNamespace(`/var/run/netns/${namespace}`);
  }

  /**
   * A connected socket to host:port from inside the namespace, paused (the caller resumes it when it reads). `onread`
   * is Node's option of that name, given when the descriptor is wrapped (it cannot be added later): a tunnel's target
   * reads into reused buffers with it, as a native one does (proxy/target-reads.ts); without it the socket emits
   * 'data', which the plain HTTP forwarder's pool and other readers need.
   */
  connect(host: string, port: number, timeoutMs: number, onread?: OnReadOpts): Promise<Socket> {
    if (this.namespaceFd === null) return Promise.reject(new DialError('EFAILED', `the dialer of ${this.namespace} is closed`));
    let socket: Socket;
    try {
      socket = adopt(this.take(isIP(host) === 6 ? 6 : 4, this.namespaceFd), onread);
    } catch (err) {
      // Out of descriptors, say: the caller hears it as the network's error, with the errno's code.
      return Promise.reject(new DialError((err as NodeJS.ErrnoException).code ?? 'EFAILED', `no socket could be made in ${this.namespace}: ${(err as Error).message}`));
    }
    socket.pause();
    return new Promise<Socket>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new DialError('ETIMEDOUT', `connect ${host}:${port} timed out`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(socket);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new DialError(err.code ?? 'EFAILED', err.message));
      });
      socket.connect({ host, port });
    });
  }

  /** An unconnected socket of the namespace: from the stash, which is refilled (one entry) when it is empty. */
  private take(family: 4 | 6, namespaceFd: number): number {
    const stash = this.stash[family];
    if (stash.length === 0) stash.push(...this.sockets.tcpSocketsIn(namespaceFd, family, STASH));
    return stash.pop()!;
  }

  /** How many unconnected sockets the dialer holds, per family (tests). */
  stashed(): { 4: number; 6: number } {
    return { 4: this.stash[4].length, 6: this.stash[6].length };
  }

  /** Closes the namespace's descriptor and every socket still in the stash; later connects are refused. */
  close(): void {
    for (const family of [4, 6] as const) for (const fd of this.stash[family].splice(0)) closeSync(fd);
    if (this.namespaceFd !== null) closeSync(this.namespaceFd);
    this.namespaceFd = null;
  }
}

/** A net.Socket over a fresh TCP descriptor (the socket owns it from here; it is closed by hand if Node refuses it). */
function adopt(fd: number, onread: OnReadOpts | undefined): Socket {
  // Node's Socket constructor takes `onread` (net.connect hands it its options); @types/node lists it only for connect.
  const options: SocketConstructorOpts & { onread?: OnReadOpts } = { fd, allowHalfOpen: true };
  if (onread) options.onread = onread;
  try {
    return new Socket(options);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
