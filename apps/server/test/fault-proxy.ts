import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** What happens to a connection that arrives while the proxy is cut. */
export type CutMode =
  /** Accepted and then left silent (a black hole: a dead route, a stuck failover). `restore()` forwards it. */
  | 'hold'
  /** Accepted and reset at once (the server's port is closed, the database is restarting). */
  | 'refuse';

/**
 * A TCP proxy for tests that puts faults between the server and its database: it forwards every connection to the
 * target until `cut()`, which resets every open connection (both sides, as a crashed network path would) and
 * then holds or refuses the new ones until `restore()`.
 */
export class FaultProxy {
  private readonly pairs = new Set<{ client: Socket; upstream: Socket }>();
  private readonly held = new Set<Socket>();
  private mode: 'pass' | CutMode = 'pass';
  /** Connections accepted so far, and how many of them `cut()` reset. */
  readonly stats = { accepted: 0, cut: 0, held: 0, refused: 0 };

  private constructor(private readonly server: Server, private readonly target: { host: string; port: number }) {
    server.on('connection', (socket) => this.accept(socket));
  }

  static async start(target: { host: string; port: number }): Promise<FaultProxy> {
    const server = createServer({ pauseOnConnect: true });
    const proxy = new FaultProxy(server, target);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return proxy;
  }

  get port(): number { return (this.server.address() as AddressInfo).port; }

  /** `url` (a postgres:// URL whose host and port are the target's) pointed through this proxy instead. */
  through(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Open forwarded connections right now. */
  get open(): number { return this.pairs.size; }

  /** Resets every open connection; until `restore()`, new ones are held silent or refused (and refusing resets the held). */
  cut(then: CutMode = 'hold'): void {
    this.mode = then;
    if (then === 'refuse') {
      for (const socket of this.held) socket.resetAndDestroy();
      this.held.clear();
    }
    for (const pair of this.pairs) {
      this.stats.cut++;
      pair.client.resetAndDestroy();
      pair.upstream.resetAndDestroy();
    }
    this.pairs.clear();
  }

  /** Forwards again: the connections held during the cut go through now, new ones as usual. */
  restore(): void {
    this.mode = 'pass';
    for (const socket of this.held) this.forward(socket);
    this.held.clear();
  }

  async close(): Promise<void> {
    this.cut('refuse');
    for (const socket of this.held) socket.destroy();
    this.held.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.stats.accepted++;
    socket.on('error', () => {});
    if (this.mode === 'refuse') {
      this.stats.refused++;
      socket.resetAndDestroy();
      return;
    }
    if (this.mode === 'hold') {
      // Paused since accept (pauseOnConnect): what the client sends waits in the socket until restore() or its end.
      this.stats.held++;
      this.held.add(socket);
      socket.once('close', () => this.held.delete(socket));
      return;
    }
    this.forward(socket);
  }

  private forward(client: Socket): void {
    if (client.destroyed) return;
    const upstream = connect(this.target.port, this.target.host);
    const pair = { client, upstream };
    this.pairs.add(pair);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', end).on('close', end);
    client.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  }
}
