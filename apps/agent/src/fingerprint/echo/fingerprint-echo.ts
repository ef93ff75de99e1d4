import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { canonicalAddress, echoResultOf, P0fSynReader, type P0fSyn } from './p0f-syn.js';

// The fingerprint echo (issue 30, "what a site sees"; docs/operations.md): a TCP server that answers each connection
// with the SYN that opened it as seen here, one JSON line (fingerprintEchoResultSchema), then closes. The SYN comes
// from Debian's p0f, which watches the listening port on `iface` and prints a report per SYN; the report is matched to
// the connection by the client's address and port. An operator runs it on any public machine (or the gateway), as
// root (p0f captures packets); the server's "what a site sees" check connects to it through a port.

export interface FingerprintEchoOptions {
  host: string;
  port: number;
  /** The interface p0f captures on (`any` for all). */
  iface: string;
  /** How long a connection waits for p0f's report of its SYN before it is answered with an error. */
  waitMs?: number;
  p0f?: string;
  /** Told of every SYN p0f reports (the CI test records what the far end saw). */
  onSyn?(syn: P0fSyn): void;
}

interface Waiter { resolve(syn: P0fSyn): void }

export class FingerprintEcho {
  private server: Server | null = null;
  private p0f: ChildProcess | null = null;
  /** Reports not yet claimed by a connection, by `address/port` (bounded: the oldest go first). */
  private readonly seen = new Map<string, P0fSyn>();
  private readonly waiting = new Map<string, Waiter>();
  boundPort = 0;

  constructor(private readonly options: FingerprintEchoOptions) {}

  async start(): Promise<void> {
    const server = createServer((socket) => void this.answer(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: this.options.host, port: this.options.port }, () => resolve());
    });
    this.server = server;
    this.boundPort = (server.address() as { port: number }).port;
    await this.startP0f();
  }

  private startP0f(): Promise<void> {
    // stdbuf: p0f's stdout is a pipe here, and each report must arrive as it is printed. setpriv: p0f ends with the
    // echo, however the echo ends (util-linux, on every Debian).
    const child = spawn('setpriv', ['--pdeathsig', 'TERM', '--', 'stdbuf', '-oL', this.options.p0f ?? 'p0f', '-i', this.options.iface,
      `tcp dst port ${this.boundPort}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.p0f = child;
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-500); });
    const reader = new P0fSynReader((syn) => {
      this.options.onSyn?.(syn);
      const key = `${canonicalAddress(syn.client)}/${syn.clientPort}`;
      const waiter = this.waiting.get(key);
      if (waiter) {
        this.waiting.delete(key);
        waiter.resolve(syn);
        return;
      }
      this.seen.set(key, syn);
      if (this.seen.size > 10_000) this.seen.delete(this.seen.keys().next().value!);
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`p0f exited (${code}): ${stderr.trim()}`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        // p0f is listening once it says so: a connection made after start() resolves is seen.
        if (line.startsWith('[+] Entered main event loop')) resolve();
        reader.line(line);
      });
    });
  }

  private async answer(socket: Socket): Promise<void> {
    socket.on('error', () => undefined);
    const key = `${canonicalAddress(socket.remoteAddress ?? '')}/${socket.remotePort}`;
    let syn = this.seen.get(key);
    this.seen.delete(key);
    if (!syn) {
      syn = await new Promise<P0fSyn | undefined>((resolve) => {
        const timer = setTimeout(() => { this.waiting.delete(key); resolve(undefined); }, this.options.waitMs ?? 3000);
        this.waiting.set(key, { resolve: (s) => { clearTimeout(timer); resolve(s); } });
      });
    }
    const body = `${JSON.stringify(syn ? echoResultOf(syn) : { error: 'p0f did not report the SYN of this connection' })}\n`;
    // A raw client reads one JSON line; an HTTP client (a GET through a proxy port) gets it as an HTTP response.
    if (await startsLikeHttp(socket)) {
      socket.end(`HTTP/1.1 ${syn ? '200 OK' : '502 Bad Gateway'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    } else {
      socket.end(body);
    }
  }

  async close(): Promise<void> {
    this.p0f?.kill('SIGTERM');
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}


/** Whether the client's first bytes (if any come within a moment) are an HTTP request line. */
function startsLikeHttp(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { socket.removeListener('data', onData); resolve(false); }, 200);
    const onData = (chunk: Buffer) => {
      clearTimeout(timer);
      socket.pause();
      resolve(/^[A-Z]{3,7} \S+ HTTP\/1\.[01]/.test(chunk.toString('latin1', 0, 64)));
    };
    socket.once('data', onData);
  });
}
