import { createServer, type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from './types.js';

// Each customer port's own HTTP and SOCKS5 listeners (issue 28, item 10; docs/decisions/045-ports-own-their-listeners.md).
// The numbers belong to the port, so a listener outlives the port's move to another modem: it is only pointed at the
// modem now serving it (the next connection leaves through that modem), and nothing is closed or rebound. A change of
// one port never touches another port's listener.

/** Who takes a connection that reached a port's listener: the modem proxy now serving the port. */
export interface PortListenerTarget {
  acceptStream(socket: Duplex, kind: 'http' | 'socks', portId: string): void;
}

export interface WantedPortListener {
  portId: string;
  httpPort: number;
  socksPort: number;
  /** Null while the port's modem is not serving (its listener refuses by closing at once). */
  target: PortListenerTarget | null;
}

interface OpenListener {
  httpPort: number;
  socksPort: number;
  target: PortListenerTarget | null;
  http: Server | null;
  socks: Server | null;
}

export class PortListeners {
  private readonly open = new Map<string, OpenListener>();
  /** Why a port's listeners could not be opened (a number already taken on this host), by port id. */
  readonly problems = new Map<string, string>();

  /** listen: false for a host behind a gateway (connections come over the link: route()). */
  constructor(private readonly listenHost: string, private readonly log: Logger, readonly listening = true) {}

  /**
   * Serves exactly these ports: listeners of ports gone or renumbered are closed first (so a number that passed
   * from one port to another finds itself free), then the new ones are opened and every target is updated.
   */
  async apply(wanted: readonly WantedPortListener[]): Promise<void> {
    const byId = new Map(wanted.map((w) => [w.portId, w]));
    await this.release(wanted);
    for (const portId of this.problems.keys()) if (!byId.has(portId)) this.problems.delete(portId);
    for (const w of wanted) {
      const l = this.open.get(w.portId);
      if (l) {
        l.target = w.target;
        continue;
      }
      const next: OpenListener = { httpPort: w.httpPort, socksPort: w.socksPort, target: w.target, http: null, socks: null };
      try {
        if (this.listening) {
          next.http = await this.bind(w.portId, w.httpPort, 'http', next);
          try {
            next.socks = await this.bind(w.portId, w.socksPort, 'socks', next);
          } catch (err) {
            await closeListener(next.http);
            throw err;
          }
        }
        this.open.set(w.portId, next);
        this.problems.delete(w.portId);
      } catch (err) {
        const problem = err instanceof Error ? err.message : String(err);
        this.problems.set(w.portId, problem);
        this.log.error({ portId: w.portId }, `port ${w.portId} is not served: ${problem}`);
      }
    }
  }

  /**
   * Closes the listeners of ports not in `wanted` or renumbered; the rest keep their targets until apply() (a proxy
   * closed meanwhile refuses what reaches it: a port between two modems is refused for that moment, never misrouted).
   */
  async release(wanted: readonly WantedPortListener[]): Promise<void> {
    const byId = new Map(wanted.map((w) => [w.portId, w]));
    const closing: Promise<void>[] = [];
    for (const [portId, l] of this.open) {
      const w = byId.get(portId);
      if (w && w.httpPort === l.httpPort && w.socksPort === l.socksPort) continue;
      this.open.delete(portId);
      closing.push(closeListener(l.http), closeListener(l.socks));
    }
    await Promise.all(closing);
  }

  /** A gateway stream for this port number: the port and protocol it belongs to, if one of ours has it. */
  route(port: number): ((socket: Duplex) => void) | null {
    for (const [portId, l] of this.open) {
      const kind = l.httpPort === port ? 'http' : l.socksPort === port ? 'socks' : null;
      if (kind === null) continue;
      const target = l.target;
      return target ? (socket) => target.acceptStream(socket, kind, portId) : null;
    }
    return null;
  }

  /** The numbers listened on, by port id (tests, the heartbeat's problems). */
  numbers(): Map<string, { httpPort: number; socksPort: number }> {
    return new Map([...this.open].map(([id, l]) => [id, { httpPort: l.httpPort, socksPort: l.socksPort }]));
  }

  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.flatMap((l) => [closeListener(l.http), closeListener(l.socks)]));
  }

  private bind(portId: string, port: number, kind: 'http' | 'socks', listener: OpenListener): Promise<Server> {
    const server = createServer({ allowHalfOpen: kind === 'socks', noDelay: true }, (socket) => {
      const target = listener.target;
      if (target === null) return socket.destroy();
      target.acceptStream(socket, kind, portId);
    });
    return new Promise((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        const why = err.code === 'EADDRINUSE' ? 'is already in use' : `cannot be opened (${err.code ?? err.message})`;
        reject(new Error(`${kind === 'http' ? 'HTTP proxy' : 'SOCKS5'} port ${port} on ${this.listenHost} ${why}`));
      });
      server.listen({ host: this.listenHost, port }, () => {
        server.removeAllListeners('error');
        server.on('error', (err) => this.log.error({ portId, port, err: String(err) }, 'port listener error'));
        resolve(server);
      });
    });
  }
}

/**
 * Stops listening at once (the number is free again when this returns); connections already taken are not waited
 * for: they belong to their modem's proxy, which ends them when their port leaves it.
 */
async function closeListener(server: Server | null): Promise<void> {
  if (server?.listening) server.close();
}
