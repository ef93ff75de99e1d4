import { spawn, type ChildProcess } from 'node:child_process';
import { isIP, Socket, type SocketConstructorOpts } from 'node:net';

// Connections made inside a preset's network namespace (docs/decisions/037-fingerprint-presets.md). A socket belongs
// to the namespace it was created in, whoever connects it later, and Node cannot enter another namespace. So a small
// Node process runs inside it (`ip netns exec <ns> node -e …`) and only CREATES sockets: unconnected TCP sockets,
// bound to the wildcard address and an ephemeral port (binding is what makes the kernel create one), handed to the
// agent over the IPC channel (SCM_RIGHTS) ahead of need. The agent keeps a small pool of them per address family and
// connects one itself when a connection is asked for: the SYN leaves by the namespace's routes, sysctls and rules, and
// no process round trip lies on the connection's path (the bench measured that round trip as most of the presets'
// cost on new connections). The pool refills in the background and grows with demand.

const CHILD = `
const { TCP, constants } = process.binding('tcp_wrap');
process.on('message', (m) => {
  for (let i = 0; i < m.fill; i++) {
    const handle = new TCP(constants.SOCKET);
    const err = m.family === 6 ? handle.bind6('::', 0, 0) : handle.bind('0.0.0.0', 0);
    if (err !== 0) {
      handle.close();
      process.send({ family: m.family, failed: err });
      continue;
    }
    // Our copy closes once the message (and the descriptor with it) is on its way.
    process.send({ family: m.family }, handle, () => handle.close());
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
`;

export class DialError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** Node's TCP handle (tcp_wrap): what arrives over IPC, and what a net.Socket can take over. */
interface TcpHandle { close(): void }
interface Waiter { resolve(handle: TcpHandle): void; reject(err: Error): void }
interface Pool { ready: TcpHandle[]; requested: number; target: number; waiters: Waiter[] }

/** Sockets kept ready per family: a quiet namespace holds this many; demand doubles it up to the maximum. */
const POOL_START = 8;
const POOL_MAX = 128;

export class NamespaceDialer {
  private readonly child: ChildProcess;
  private readonly pools = new Map<4 | 6, Pool>();
  private exited: string | null = null;
  readonly ready: Promise<void>;

  constructor(readonly namespace: string, private readonly onExit: (why: string) => void) {
    this.child = spawn('ip', ['netns', 'exec', namespace, process.execPath, '-e', CHILD], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    this.child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-300); });
    this.ready = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('exit', (code, signal) => reject(new Error(`the dialer in ${namespace} exited (${signal ?? code}) ${stderr.trim()}`)));
      this.child.on('message', (m: { ready?: boolean }) => { if (m.ready) resolve(); });
    });
    this.ready.catch(() => undefined);
    this.child.on('message', (m: { family?: 4 | 6; failed?: number }, handle?: TcpHandle) => {
      if (m.family === undefined) return;
      const pool = this.poolOf(m.family);
      pool.requested = Math.max(0, pool.requested - 1);
      if (handle === undefined) {
        // The namespace could not make a socket (out of ports or descriptors): the one waiting longest hears why.
        pool.waiters.shift()?.reject(new DialError('EFAILED', `no socket could be made in ${namespace} (libuv error ${m.failed})`));
        return;
      }
      const waiter = pool.waiters.shift();
      if (waiter) waiter.resolve(handle);
      else pool.ready.push(handle);
    });
    this.child.once('exit', (code, signal) => {
      this.exited = `the connecting process of ${namespace} exited (${signal ?? code})`;
      for (const pool of this.pools.values()) {
        for (const handle of pool.ready.splice(0)) handle.close();
        for (const w of pool.waiters.splice(0)) w.reject(new DialError('EFAILED', this.exited));
      }
      this.onExit(this.exited);
    });
  }

  private poolOf(family: 4 | 6): Pool {
    let pool = this.pools.get(family);
    if (pool === undefined) {
      pool = { ready: [], requested: 0, target: POOL_START, waiters: [] };
      this.pools.set(family, pool);
    }
    return pool;
  }

  /** Asks the namespace for sockets once the pool (with what is on its way) is down to half its target. */
  private refill(family: 4 | 6, pool: Pool): void {
    const have = pool.ready.length + pool.requested - pool.waiters.length;
    if (have > pool.target / 2 || this.exited) return;
    const fill = pool.target - have;
    pool.requested += fill;
    this.child.send({ fill, family });
  }

  /** An unconnected socket of the namespace: from the pool, or the next one made when the pool ran dry. */
  private take(family: 4 | 6): Promise<TcpHandle> {
    const pool = this.poolOf(family);
    const handle = pool.ready.shift();
    if (handle === undefined) pool.target = Math.min(POOL_MAX, pool.target * 2);
    const out = handle !== undefined ? Promise.resolve(handle) : new Promise<TcpHandle>((resolve, reject) => pool.waiters.push({ resolve, reject }));
    this.refill(family, pool);
    return out;
  }

  /** Fills the pools ahead of the first connection (the namespace was just made for a port). */
  warm(family: 4 | 6): void {
    void this.ready.then(() => this.refill(family, this.poolOf(family)), () => undefined);
  }

  /** A connected socket to host:port from inside the namespace, paused (the caller resumes it when it reads). */
  async connect(host: string, port: number, timeoutMs: number): Promise<Socket> {
    await this.ready;
    if (this.exited) throw new DialError('EFAILED', this.exited);
    const handle = await this.take(isIP(host) === 6 ? 6 : 4);
    const socket = new Socket({ handle, allowHalfOpen: true } as SocketConstructorOpts);
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

  get pid(): number | undefined {
    return this.child.pid;
  }

  close(): void {
    for (const pool of this.pools.values()) for (const handle of pool.ready.splice(0)) handle.close();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
