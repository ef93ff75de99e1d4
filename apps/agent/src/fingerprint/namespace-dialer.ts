import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

// Connections made inside a preset's network namespace (docs/decisions/037-fingerprint-presets.md). A socket belongs
// to the namespace it was created in, and Node cannot enter another namespace, so a small Node process runs inside
// it (`ip netns exec <ns> node -e …`), connects on request and hands the connected socket back over its IPC channel
// (SCM_RIGHTS): from then on the agent owns the socket as if it had connected it. The child connects paused, so not a
// byte the target sends first (an SSH or SMTP banner) is read before the agent has the socket.

const CHILD = `
const { connect } = require('node:net');
process.on('message', (m) => {
  const s = connect({ host: m.host, port: m.port });
  s.pause();
  const timer = setTimeout(() => { s.destroy(); process.send({ id: m.id, code: 'ETIMEDOUT' }); }, m.timeoutMs);
  s.once('connect', () => { clearTimeout(timer); process.send({ id: m.id }, s); });
  s.once('error', (e) => { clearTimeout(timer); process.send({ id: m.id, code: e.code || 'EFAILED', message: e.message }); });
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
`;

export class DialError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

interface Pending { resolve(socket: Socket): void; reject(err: Error): void }

export class NamespaceDialer {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private next = 1;
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
    this.child.on('message', (m: { id?: number; code?: string; message?: string }, handle?: unknown) => {
      if (m.id === undefined) return;
      const waiter = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (!waiter) {
        (handle as Socket | undefined)?.destroy();
        return;
      }
      if (handle) waiter.resolve(handle as Socket);
      else waiter.reject(new DialError(m.code ?? 'EFAILED', m.message ?? m.code ?? 'connect failed'));
    });
    this.child.once('exit', (code, signal) => {
      this.exited = `the connecting process of ${namespace} exited (${signal ?? code})`;
      for (const w of this.pending.values()) w.reject(new DialError('EFAILED', this.exited));
      this.pending.clear();
      this.onExit(this.exited);
    });
  }

  /** A connected socket to host:port from inside the namespace. */
  async connect(host: string, port: number, timeoutMs: number): Promise<Socket> {
    await this.ready;
    if (this.exited) throw new DialError('EFAILED', this.exited);
    const id = this.next++;
    return new Promise<Socket>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, host, port, timeoutMs });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  close(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
