// Commands a person would paste into a terminal, run with the real binaries (`bash -c`), and a local site that
// streams a long download, for the specs that try the proxies themselves.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ShellResult { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number }

/** Runs `command` with `bash -c`, exactly as given; killed after `timeoutMs` (then `signal` says so). */
export function sh(command: string, timeoutMs = 15_000): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const proc = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    proc.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.once('error', (error) => { clearTimeout(timer); reject(error); });
    proc.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** A command left running (a download): how it ended, once it has. */
export interface Running {
  readonly proc: ChildProcess;
  /** Resolves when the command exits. */
  readonly done: Promise<ShellResult>;
  /** Null while it still runs. */
  result(): ShellResult | null;
  kill(): void;
}

export function shBackground(command: string): Running {
  const started = Date.now();
  const proc = spawn('bash', ['-c', `exec ${command}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let ended: ShellResult | null = null;
  proc.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
  proc.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const done = new Promise<ShellResult>((resolve) => {
    proc.once('close', (code, signal) => {
      ended = { code, signal, stdout, stderr, ms: Date.now() - started };
      resolve(ended);
    });
  });
  return { proc, done, result: () => ended, kill: () => { if (!ended) proc.kill('SIGKILL'); } };
}

/** What the streaming site saw of one download. */
export interface Download { remoteAddress: string; bytesSent: number; closed: boolean }

export interface StreamingSite {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** Downloads of /download so far, in the order they started. */
  readonly downloads: Download[];
  close(): Promise<void>;
}

/**
 * A site on 127.0.0.1 whose /download never ends: 16 KB every 50 ms until the client goes away. It notes who
 * downloads (the address a request came from) and whether the connection was closed.
 */
export async function streamingSite(): Promise<StreamingSite> {
  const downloads: Download[] = [];
  const chunk = Buffer.alloc(16 * 1024, 'x');
  const server: Server = createServer((request, response) => {
    if (request.url !== '/download') { response.writeHead(404).end(); return; }
    const download: Download = { remoteAddress: (request.socket.remoteAddress ?? '').replace(/^::ffff:/, ''), bytesSent: 0, closed: false };
    downloads.push(download);
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' });
    const timer = setInterval(() => {
      response.write(chunk);
      download.bytesSent += chunk.length;
    }, 50);
    response.once('close', () => { clearInterval(timer); download.closed = true; });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    downloads,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
