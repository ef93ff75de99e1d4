// The embedded database (PGlite) belongs to one process: a second one opening DATA_DIR would corrupt it. A server on
// PGlite therefore listens on a Unix socket beside its data (`DATA_DIR/control.sock`, owner-only), which does two
// things: the operator CLI finds out that a server is using DATA_DIR (and refuses, or asks it), and `npm run admin --
// backup` gets a consistent copy of the running database from the server itself (docs/decisions/032-backups.md).
// Whoever can open the socket can read DATA_DIR anyway: the file's permissions are the access check.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A Unix socket path must fit in sun_path (108 bytes on Linux); a longer DATA_DIR uses a name in the temp folder. */
const MAX_SOCKET_PATH = 100;

export function controlSocketPath(dataDir: string): string {
  const beside = join(dataDir, 'control.sock');
  if (Buffer.byteLength(beside) <= MAX_SOCKET_PATH) return beside;
  return join(tmpdir(), `cellport-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}.sock`);
}

export class DataDirInUseError extends Error {}

/** What the server answers on its control socket. */
export interface ControlHandlers {
  /** A consistent copy of the embedded database (PGlite's data directory as tar.gz). */
  backup(): Promise<Buffer>;
}

export interface ControlSocket {
  /** Starts answering; until then a connecting CLI is told the server is starting. */
  serve(handlers: ControlHandlers): void;
  close(): Promise<void>;
}

/**
 * Claims DATA_DIR for this server before it opens the database: listens on the control socket, or fails with
 * DataDirInUseError when another process answers there. A socket file left by a server that died is removed.
 */
export async function claimDataDir(dataDir: string): Promise<ControlSocket> {
  const path = controlSocketPath(dataDir);
  mkdirSync(dataDir, { recursive: true });
  let handlers: ControlHandlers | null = null;
  const sockets = new Set<Socket>();
  // Half-open: the CLI ends its side after the command and still reads the answer.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    void answer(socket, handlers);
  });
  try {
    await listen(server, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    if (await someoneAnswers(path)) {
      throw new DataDirInUseError(`Another Cellport server is using ${dataDir} (it answers on ${path}). The embedded database allows one process: stop that server first, or give this one another DATA_DIR.`);
    }
    unlinkSync(path);
    await listen(server, path);
  }
  chmodSync(path, 0o600);
  return {
    serve(h) { handlers = h; },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/** One request per connection: a line with the command; the answer is `ok <bytes>\n` and the bytes, or `error <text>\n`. */
async function answer(socket: Socket, handlers: ControlHandlers | null): Promise<void> {
  const line = await readLine(socket).catch(() => null);
  if (line === null) return;
  if (line === 'ping') return void socket.end('ok 0\n');
  if (line !== 'backup') return void socket.end(`error unknown command "${line.slice(0, 40)}"\n`);
  if (!handlers) return void socket.end('error the server is still starting; try again in a moment\n');
  try {
    const data = await handlers.backup();
    socket.write(`ok ${data.length}\n`);
    socket.end(data);
  } catch (err) {
    socket.end(`error ${String((err as Error)?.message ?? err).replace(/\s+/g, ' ').slice(0, 500)}\n`);
  }
}

/** The CLI's side: null when no server answers for DATA_DIR (none runs); otherwise the server's answer. */
export async function askServer(dataDir: string, command: 'ping' | 'backup'): Promise<{ ok: true; data: Buffer } | { ok: false; error: string } | null> {
  const path = controlSocketPath(dataDir);
  const socket = connect(path);
  try {
    await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
  } catch {
    return null;
  }
  socket.end(`${command}\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const all = Buffer.concat(chunks);
  const eol = all.indexOf(10);
  const head = all.subarray(0, eol < 0 ? all.length : eol).toString();
  if (head.startsWith('error ')) return { ok: false, error: head.slice(6) };
  const size = /^ok (\d+)$/.exec(head);
  if (!size) return { ok: false, error: `the server answered "${head.slice(0, 80)}"` };
  const data = all.subarray(eol + 1);
  if (data.length !== Number(size[1])) return { ok: false, error: `the server sent ${data.length} of ${size[1]} bytes` };
  return { ok: true, data };
}

async function someoneAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => { server.removeListener('error', reject); resolve(); });
  });
}

function readLine(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const eol = text.indexOf('\n');
      if (eol >= 0) { socket.removeListener('data', onData); resolve(text.slice(0, eol).trim()); }
      else if (text.length > 200) { socket.destroy(); reject(new Error('line too long')); }
    };
    socket.on('data', onData);
    socket.once('end', () => reject(new Error('closed before a line')));
  });
}
