import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, existsSync, fstatSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DialError, NamespaceDialer, STASH } from './namespace-dialer.js';
import { namespaceSockets, nodeHeaders, type NamespaceSockets } from './namespace-socket.js';

// The namespace socket addon (namespace-socket.c) and the dialer over it: a socket made by this very thread inside
// another network namespace connects there, and the thread is back in its own namespace afterwards (every later
// socket of the agent, native ports included, is made where it always was). The proof: one port number, a listener
// on 127.0.0.1 in each namespace answering its own word. Needs root, `ip netns` and a C compiler with Node's headers;
// skipped by name elsewhere (fingerprint-presets.netns.test.ts runs the dialer end to end with p0f).

const exec = promisify(execFile);

function missing(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root';
  try {
    execFileSync('sh', ['-c', 'command -v ip && (command -v cc || command -v clang || command -v gcc)'], { stdio: 'ignore' });
  } catch {
    return 'ip or a C compiler is missing';
  }
  if (!existsSync(join(nodeHeaders(), 'node_api.h'))) return `Node's headers are missing in ${nodeHeaders()}`;
  return null;
}
const why = missing();
if (process.env.CELLPORT_REQUIRE_ROOT_TESTS === '1' && why) {
  describe('the namespace socket addon', () => {
    it('runs in CI (CELLPORT_REQUIRE_ROOT_TESTS=1)', () => {
      throw new Error(`The namespace socket addon's test cannot run here: ${why}.`);
    });
  });
}

const namespace = `cpnd-${process.pid.toString(36)}${randomBytes(2).toString('hex')}`;
const ownNamespace = () => readlinkSync('/proc/thread-self/ns/net');

/** The first line a socket receives. */
async function firstLine(socket: Socket): Promise<string> {
  socket.resume();
  const [line] = (await once(createInterface({ input: socket }), 'line')) as [string];
  socket.destroy();
  return line;
}

describe.skipIf(why !== null)(`the namespace socket addon${why ? ` (skipped: ${why})` : ''}`, () => {
  let dataDir: string;
  let sockets: NamespaceSockets;
  let outside: Server;
  let inside: ChildProcess;
  let port: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cellport-nd-'));
    sockets = await namespaceSockets(dataDir);
    await exec('ip', ['netns', 'add', namespace]);
    await exec('ip', ['-n', namespace, 'link', 'set', 'lo', 'up']);
    // Here: a listener on a free port that answers "outside"; in the namespace, one on the same port that answers
    // "inside" (IPv4 and IPv6 loopback both).
    outside = createServer((s) => s.end('outside\n'));
    outside.listen(0, '127.0.0.1');
    await once(outside, 'listening');
    port = (outside.address() as { port: number }).port;
    const script = `const net = require('node:net'); let n = 0;
      for (const host of ['127.0.0.1', '::1']) net.createServer((s) => s.end('inside\\n')).listen(${port}, host, () => { if (++n === 2) console.log('ready'); });`;
    inside = spawn('ip', ['netns', 'exec', namespace, process.execPath, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await once(createInterface({ input: inside.stdout! }), 'line');
  });

  afterAll(async () => {
    inside?.kill('SIGKILL');
    outside?.close();
    await exec('ip', ['netns', 'del', namespace]).catch(() => undefined);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('a socket made in the namespace connects there (IPv4 and IPv6); the thread stays in its own namespace', async () => {
    const before = ownNamespace();
    const dialer = new NamespaceDialer(sockets, namespace);
    expect(await firstLine(await dialer.connect('127.0.0.1', port, 5000))).toBe('inside');
    expect(await firstLine(await dialer.connect('::1', port, 5000))).toBe('inside');
    expect(ownNamespace()).toBe(before);
    // A plain socket made after it is this namespace's, as ever.
    const plain = connect({ host: '127.0.0.1', port });
    await once(plain, 'connect');
    expect(await firstLine(plain)).toBe('outside');
    dialer.close();
  });

  it('many at once: each its own socket, all inside', async () => {
    const dialer = new NamespaceDialer(sockets, namespace);
    const lines = await Promise.all(Array.from({ length: 50 }, async () => firstLine(await dialer.connect('127.0.0.1', port, 5000))));
    expect(new Set(lines)).toEqual(new Set(['inside']));
    dialer.close();
  });

  it('sockets are made a stash at a time per family on one entry, refilled when empty; close() closes what is left', async () => {
    const before = ownNamespace();
    // The addon, watched: every batch it makes, and each descriptor in it.
    const batches: Array<{ family: number; fds: number[] }> = [];
    const watched: NamespaceSockets = {
      openNamespace: (path) => sockets.openNamespace(path),
      tcpSocketsIn: (ns, family, count) => {
        const fds = sockets.tcpSocketsIn(ns, family, count);
        batches.push({ family, fds });
        return fds;
      },
    };
    const dialer = new NamespaceDialer(watched, namespace);
    expect(await firstLine(await dialer.connect('127.0.0.1', port, 5000))).toBe('inside');
    expect(batches.map((b) => [b.family, b.fds.length])).toEqual([[4, STASH]]);
    expect(dialer.stashed()).toEqual({ 4: STASH - 1, 6: 0 });
    // Every socket of the stash connects inside, however long it waited there; the next one past it starts a new batch.
    for (let i = 1; i < STASH; i++) expect(await firstLine(await dialer.connect('127.0.0.1', port, 5000))).toBe('inside');
    expect(dialer.stashed()).toEqual({ 4: 0, 6: 0 });
    expect(await firstLine(await dialer.connect('127.0.0.1', port, 5000))).toBe('inside');
    expect(await firstLine(await dialer.connect('::1', port, 5000))).toBe('inside');
    expect(batches.map((b) => b.family)).toEqual([4, 4, 6]);
    expect(dialer.stashed()).toEqual({ 4: STASH - 1, 6: STASH - 1 });
    expect(ownNamespace()).toBe(before);
    // The descriptors still stashed are closed with the dialer (a torn down or rebuilt namespace keeps none open).
    const unused = [...batches[1]!.fds.slice(0, STASH - 1), ...batches[2]!.fds.slice(0, STASH - 1)];
    for (const fd of unused) expect(() => fstatSync(fd)).not.toThrow();
    dialer.close();
    expect(dialer.stashed()).toEqual({ 4: 0, 6: 0 });
    for (const fd of unused) expect(() => fstatSync(fd)).toThrow(/EBADF/);
  });

  it('the addon makes what it can, and refuses a count it does not take', () => {
    const ns = sockets.openNamespace(`/var/run/netns/${namespace}`);
    try {
      const fds = sockets.tcpSocketsIn(ns, 6, 3);
      expect(fds).toHaveLength(3);
      expect(new Set(fds).size).toBe(3);
      for (const fd of fds) closeSync(fd);
      expect(() => sockets.tcpSocketsIn(ns, 4, 0)).toThrow(/count/);
      expect(() => sockets.tcpSocketsIn(ns, 4, 65)).toThrow(/count/);
    } finally {
      closeSync(ns);
    }
  });

  it('a socket asked to read with `onread` reads through its callback, not as \'data\' (a tunnel\'s target)', async () => {
    const dialer = new NamespaceDialer(sockets, namespace);
    const read: string[] = [];
    const buffer = Buffer.alloc(64);
    const socket = await dialer.connect('127.0.0.1', port, 5000, {
      buffer,
      callback: (n) => { read.push(buffer.toString('latin1', 0, n)); return true; },
    });
    let dataEvents = 0;
    socket.on('data', () => dataEvents++);
    socket.resume();
    await once(socket, 'end'); // the listener's end (the dialer's sockets allow half-open, so no 'close' yet)
    socket.destroy();
    expect(read.join('')).toBe('inside\n');
    expect(dataEvents).toBe(0);
    dialer.close();
  });

  it('the network\'s errors come back with their code; a closed dialer refuses', async () => {
    const dialer = new NamespaceDialer(sockets, namespace);
    // A port that listens here but not in the namespace: refused there.
    const here = createServer((s) => s.end());
    here.listen(0, '127.0.0.1');
    await once(here, 'listening');
    const refused = await dialer.connect('127.0.0.1', (here.address() as { port: number }).port, 5000).catch((err: unknown) => err);
    here.close();
    expect(refused).toBeInstanceOf(DialError);
    expect((refused as DialError).code).toBe('ECONNREFUSED');
    dialer.close();
    await expect(dialer.connect('127.0.0.1', port, 5000)).rejects.toThrow(/closed/);
  });

  it('refuses what is not a network namespace, with the reason', () => {
    expect(() => sockets.openNamespace('/var/run/netns/cellport-no-such-namespace')).toThrow(/No such file/);
    expect(() => sockets.openNamespace('/proc/self/ns/ipc')).toThrow(/not a network namespace/);
    expect(() => new NamespaceDialer(sockets, 'cellport-no-such-namespace')).toThrow(/No such file/);
  });
});
