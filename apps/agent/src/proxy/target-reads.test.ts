import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, createServer, Socket } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bulkReaders, deliverReads, MAX_OWNERS, TARGET_READS } from './target-reads.js';
import { access, basic, destroyTestClients, httpConnect, readAll, socksConnect, startModem } from './test-support.js';
import type { TestModem } from './test-support.js';

// A tunnel's target connection reads into reused buffers (target-reads.ts): one shared by every connection between
// bulk reads, a connection's own during bulk, given up to a write the client did not take at once. Whatever the mix,
// each client must get exactly its own target's bytes, and the port's traffic must count exactly those.

const SIZE = 6 * 1024 * 1024;
const P1 = access('p1');

/** Where bulk targets get their payload and say whether their socket's buffer filled (the client was not reading). */
interface BulkTarget { port: number; server: Server; sockets: Set<Socket> }

/** A target that sends `payloads[n]` to its n-th connection in writes of mixed sizes, then closes. */
async function startBulkTarget(payloads: Buffer[], backedUp: (n: number) => void): Promise<BulkTarget> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((socket) => {
    const n = count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const payload = payloads[n]!;
    // Sizes that give full reads (bulk), short ones (back to the shared buffer) and everything between.
    const sizes = [1, 65536, 100, 200_000, 7, 65535, 65537, 3000, 1 << 20];
    let offset = 0;
    let i = 0;
    const pump = (): void => {
      while (offset < payload.length) {
        const end = Math.min(payload.length, offset + sizes[i++ % sizes.length]!);
        const ok = socket.write(payload.subarray(offset, end));
        offset = end;
        if (!ok) {
          backedUp(n);
          socket.once('drain', pump);
          return;
        }
      }
      socket.end();
    };
    pump();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, server, sockets };
}

const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a target\'s bytes through reused read buffers', () => {
  let modem: TestModem;
  let target: BulkTarget;
  const payloads = [randomBytes(SIZE), randomBytes(SIZE), randomBytes(SIZE)];
  const backed = new Map<number, () => void>();

  beforeAll(async () => {
    modem = await startModem({ ports: [P1] });
    target = await startBulkTarget(payloads, (n) => backed.get(n)?.());
  });
  afterAll(async () => {
    await modem.close();
    for (const s of target.sockets) s.destroy();
    await new Promise((resolve) => target.server.close(resolve));
    // The proxy's target connections give their buffers back on their own 'close', which may come after the modem has
    // closed (its server waits for clients only). The tests below count buffers from none: wait for every one back.
    while (bulkReaders() > 0) await new Promise((resolve) => setImmediate(resolve));
  });
  afterEach(destroyTestClients);

  it('three tunnels at once, one client reading only after its target is backed up: each gets its own bytes, counted exactly', async () => {
    const auth = basic(P1.login, P1.password);
    // Tunnel 0 opens first, so its target connection is the target's 0th; its client waits before reading.
    const slow = await httpConnect(modem.http, `127.0.0.1:${target.port}`, auth);
    slow.socket.pause();
    const slowBackedUp = new Promise<void>((resolve) => backed.set(0, resolve));
    const fast = await httpConnect(modem.http, `127.0.0.1:${target.port}`, auth);
    const socks = await socksConnect(modem.socks, '127.0.0.1', target.port, { userId: P1.login, password: P1.password });
    const fastAll = readAll(fast.socket);
    const socksAll = readAll(socks);
    // The slow client's tunnel is full up to its target's socket (the proxy paused reading it) before it reads.
    await slowBackedUp;
    const slowAll = readAll(slow.socket);
    const [a, b, c] = await Promise.all([slowAll, fastAll, socksAll]);
    expect([a.length, b.length, c.length]).toEqual([SIZE, SIZE, SIZE]);
    expect(digest(a)).toBe(digest(payloads[0]!));
    expect(digest(b)).toBe(digest(payloads[1]!));
    expect(digest(c)).toBe(digest(payloads[2]!));
    // Traffic (bytesIn: what the customer got): the three payloads, plus the CONNECT answers and SOCKS replies.
    await modem.close();
    const samples = modem.meter.collect(0);
    const down = samples.reduce((sum, s) => sum + s.bytesIn, 0n);
    const answers = BigInt(slow.head.length + fast.head.length) + 10n + 2n + 2n; // SOCKS: method, auth, reply
    expect(down).toBe(BigInt(3 * SIZE) + answers);
  });
});

describe('target reads: when a buffer is read into again', () => {
  /** A connected pair on loopback: `a` writes, `b` reads. */
  async function pair(): Promise<{ a: Socket; b: Socket; close: () => Promise<void> }> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const a = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(a, 'connect');
    const [b] = await accepted;
    return { a, b, close: async () => { a.destroy(); b.destroy(); await new Promise((r) => server.close(r)); } };
  }

  /** One read as Node makes it: the callback on `reader`, then the buffer for the next read. */
  function read(reader: Socket, buf: Buffer, bytes: Buffer): Buffer {
    bytes.copy(buf);
    (TARGET_READS.callback as (this: Socket, n: number, b: Buffer) => boolean).call(reader, bytes.length, buf);
    return (TARGET_READS.buffer as () => Buffer)();
  }

  it('full reads move to a buffer of their own, kept while the client takes each chunk at once, replaced while a write holds it', async () => {
    const { a: client, b: far, close } = await pair();
    const reader = new Socket();
    const got: Buffer[] = [];
    far.on('data', (c: Buffer) => got.push(c));
    deliverReads(reader, client, function deliver(this: Socket, chunk: Buffer) { client.write(chunk); });
    const first = (TARGET_READS.buffer as () => Buffer)();
    const full = (fill: number) => Buffer.alloc(64 * 1024, fill);

    const own = read(reader, first, full(1)); // a full read into the shared buffer: bulk begins
    expect(own).not.toBe(first);
    expect(bulkReaders()).toBe(1);
    expect(read(reader, own, full(2))).toBe(own); // the client's socket took it within the call: read into it again
    client.cork(); // the next write stays queued, holding its chunk
    const another = read(reader, own, full(3));
    expect(another).not.toBe(own);
    read(reader, another, full(4)); // would overwrite the queued chunk had it been read into `own`
    client.uncork();
    const short = read(reader, another, Buffer.from('end')); // a short read: back to the shared buffer
    expect(short).toBe(first);
    expect(bulkReaders()).toBe(0);
    client.end();
    await once(far, 'end');
    const all = Buffer.concat(got);
    expect(all.length).toBe(4 * 64 * 1024 + 3);
    for (let i = 0; i < 4; i++) expect(all.subarray(i * 65536, (i + 1) * 65536).equals(full(i + 1))).toBe(true);
    expect(all.subarray(4 * 65536).toString()).toBe('end');
    await close();
  });

  it('bytes read before the tunnel is joined are held, and reading pauses until then', () => {
    const reader = new Socket();
    const buf = (TARGET_READS.buffer as () => Buffer)();
    read(reader, buf, Buffer.from('220 banner\r\n'));
    expect(reader.isPaused()).toBe(true);
    read(reader, buf, Buffer.from('more'));
    const early = deliverReads(reader, null, () => {});
    expect(Buffer.concat(early).toString()).toBe('220 banner\r\nmore');
    expect(deliverReads(reader, null, () => {})).toEqual([]);
  });
});

describe('target reads: buffers of their own are bounded', () => {
  it('at most MAX_OWNERS connections read into buffers of their own; a closed one gives its place back', async () => {
    const shared = (TARGET_READS.buffer as () => Buffer)();
    const full = Buffer.alloc(64 * 1024, 5);
    const readers = Array.from({ length: MAX_OWNERS + 1 }, () => {
      const reader = new Socket();
      deliverReads(reader, null, () => {});
      return reader;
    });
    const next = readers.map((reader) => {
      full.copy(shared);
      (TARGET_READS.callback as (this: Socket, n: number, b: Buffer) => boolean).call(reader, full.length, shared);
      return (TARGET_READS.buffer as () => Buffer)();
    });
    expect(bulkReaders()).toBe(MAX_OWNERS);
    expect(next.slice(0, MAX_OWNERS).every((b) => b !== shared)).toBe(true);
    expect(next[MAX_OWNERS]).toBe(shared); // the one past the bound copies out of the shared buffer
    readers[0]!.destroy();
    await once(readers[0]!, 'close');
    expect(bulkReaders()).toBe(MAX_OWNERS - 1);
    const closing = readers.slice(1).map((reader) => once(reader, 'close'));
    for (const reader of readers.slice(1)) reader.destroy();
    await Promise.all(closing);
    expect(bulkReaders()).toBe(0);
  });
});
