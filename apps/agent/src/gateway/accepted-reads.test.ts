import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { splice } from '../proxy/splice.js';
import { bulkReaders } from '../proxy/target-reads.js';
import { readChunks, withReusedReads } from './accepted-reads.js';

// An accepted socket re-made over its handle to read into reused buffers (the gateway's relayed sockets): it relays
// every byte, reads a full buffer into one of its own, still tells its server it is gone, and hands its chunks to a
// reader that is not a relay.

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** A server whose accepted sockets are given to `onSocket` paused, as the gateway's are. */
async function listen(onSocket: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer({ allowHalfOpen: true, pauseOnConnect: true }, onSocket);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanup.push(() => new Promise((r) => server.close(r)));
  return { server, port: (server.address() as AddressInfo).port };
}

async function dial(port: number): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => {});
  cleanup.push(() => socket.destroy());
  await once(socket, 'connect');
  return socket;
}

describe('withReusedReads', () => {
  it('relays 4 MiB intact both ways through a re-made socket; a full read takes a buffer of its own', async () => {
    const before = bulkReaders();
    let maxOwners = before;
    const echo = await listen((socket) => {
      // Sampled while the relay reads: a bulk reader holds its own buffer until a short read.
      socket.on('data', () => { maxOwners = Math.max(maxOwners, bulkReaders()); });
      socket.pipe(socket);
      socket.resume();
    });
    const sockets: Socket[] = [];
    cleanup.push(() => { for (const s of sockets) s.destroy(); });
    let accepted!: (socket: Socket) => void;
    const remade = new Promise<Socket>((resolve) => { accepted = resolve; });
    const relay = await listen((raw) => {
      const socket = withReusedReads(raw);
      sockets.push(socket);
      accepted(socket);
    });
    const bytes = randomBytes(4 * 1024 * 1024);
    const client = await dial(relay.port);
    const hash = createHash('sha256');
    let received = 0;
    const done = new Promise<void>((resolve) => {
      client.on('data', (c: Buffer) => {
        hash.update(c);
        received += c.length;
        if (received === bytes.length) resolve();
      });
    });
    // The first 256 KiB wait in the kernel before the relay is joined: its first read fills the buffer.
    await new Promise<void>((resolve) => client.write(bytes.subarray(0, 256 * 1024), () => resolve()));
    const upstream = connect({ host: '127.0.0.1', port: echo.port });
    upstream.on('error', () => {});
    sockets.push(upstream);
    await once(upstream, 'connect');
    // Also sampled as each chunk is relayed, within the read's callback (the echo sees them a turn or more later).
    const relayWrite = upstream.write.bind(upstream) as (chunk: Buffer) => boolean;
    upstream.write = ((chunk: Buffer) => {
      maxOwners = Math.max(maxOwners, bulkReaders());
      return relayWrite(chunk);
    }) as typeof upstream.write;
    splice(await remade, upstream);
    client.write(bytes.subarray(256 * 1024));
    await done;
    expect(hash.digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(maxOwners).toBeGreaterThan(before);
  });

  it('the server no longer counts the socket it replaced, and a reader that is not a relay gets every chunk', async () => {
    let accepted!: (socket: Socket) => void;
    const remade = new Promise<Socket>((resolve) => { accepted = resolve; });
    const chunks: Buffer[] = [];
    const { server, port } = await listen((raw) => {
      const socket = withReusedReads(raw);
      cleanup.push(() => socket.destroy());
      readChunks(socket, (chunk) => chunks.push(chunk));
      socket.resume();
      accepted(socket);
    });
    const client = await dial(port);
    client.write('first ');
    client.end('and last');
    await once(await remade, 'end');
    expect(Buffer.concat(chunks).toString()).toBe('first and last');
    const count = await new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    expect(count).toBe(0);
  });
});
