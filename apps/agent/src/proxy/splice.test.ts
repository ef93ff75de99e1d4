import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { Duplex, PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { markBurstyReader, splice } from './splice.js';

// A gateway link's stream hands the proxy one chunk per HTTP/2 DATA frame, many in one turn of the event loop; the
// splice writes them on together (one writev) and pauses the reader only past a burst, not at the first frame.

const FRAME = 16 * 1024;
const cleanups: Array<() => void> = [];
afterEach(() => { for (const c of cleanups.splice(0)) c(); });

/** A connected TCP pair on loopback: `peer` is the splice's writer, `far` reads what it wrote (both half-open). */
async function socketPair(): Promise<{ peer: Socket; far: Socket }> {
  const server = createServer({ allowHalfOpen: true });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const accepted = once(server, 'connection');
  const peer = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const [far] = (await accepted) as [Socket];
  await once(peer, 'connect');
  cleanups.push(() => { peer.destroy(); far.destroy(); server.close(); });
  return { peer, far };
}

/** Frames of FRAME bytes, each filled with its index, so order and content can be checked. */
function frames(n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => Buffer.alloc(FRAME, i));
}

describe('splice', () => {
  it('writes the chunks a bursty reader gives in one turn to its peer in one writev, in order, every byte', async () => {
    const { peer, far } = await socketPair();
    const calls = { write: 0, writev: 0, chunksPerWritev: [] as number[] };
    const ownWrite = peer._write.bind(peer);
    const ownWritev = peer._writev!.bind(peer);
    peer._write = (chunk, encoding, cb) => { calls.write++; ownWrite(chunk, encoding, cb); };
    peer._writev = (chunks, cb) => { calls.writev++; calls.chunksPerWritev.push(chunks.length); ownWritev(chunks, cb); };
    const reader = new PassThrough();
    markBurstyReader(reader as unknown as Socket);
    splice(reader as unknown as Socket, peer);
    const sent = frames(8);
    const received: Buffer[] = [];
    let bytes = 0;
    const all = new Promise<void>((resolve) => far.on('data', (c: Buffer) => {
      received.push(c);
      bytes += c.length;
      if (bytes === sent.length * FRAME) resolve();
    }));
    for (const f of sent) reader.write(f);
    await all;
    expect(Buffer.concat(received).equals(Buffer.concat(sent))).toBe(true);
    expect(calls).toEqual({ write: 0, writev: 1, chunksPerWritev: [8] });
  });

  it('writes a small chunk of a bursty reader at once, before the turn ends (interactive traffic is not held back)', async () => {
    const { peer, far } = await socketPair();
    const reader = new PassThrough();
    markBurstyReader(reader as unknown as Socket);
    splice(reader as unknown as Socket, peer);
    let written = -1;
    const ownWrite = peer._write.bind(peer);
    peer._write = (chunk, encoding, cb) => { written = (chunk as Buffer).length; ownWrite(chunk, encoding, cb); };
    const echoed = once(far, 'data');
    reader.write(Buffer.from('0123456789abcdef'));
    // The chunk reaches the peer within the same turn (process.nextTick runs before any setImmediate).
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(written).toBe(16);
    expect(String((await echoed)[0])).toBe('0123456789abcdef');
  });

  it('pauses a bursty reader only once its peer holds more than 256 KiB unsent, and resumes it when the peer drains', async () => {
    // A peer that takes nothing until released: what it holds is exactly what the splice gave it.
    const held: Array<() => void> = [];
    const peer = new Duplex({ read() {}, write(_chunk, _encoding, cb) { held.push(cb); } }) as unknown as Socket;
    const reader = new PassThrough({ highWaterMark: 4 * 1024 * 1024 });
    markBurstyReader(reader as unknown as Socket);
    splice(reader as unknown as Socket, peer);
    for (const f of frames(4)) reader.write(f);
    await new Promise(setImmediate);
    // One frame already reaches a socket's 16 KiB high-water mark; a burst of them must not stop the reader.
    expect(reader.isPaused()).toBe(false);
    for (const f of frames(14)) reader.write(f);
    await new Promise(setImmediate);
    expect(reader.isPaused()).toBe(true);
    expect(peer.writableLength).toBeGreaterThan(256 * 1024);
    expect(peer.writableLength).toBeLessThanOrEqual(256 * 1024 + FRAME);
    const resumed = once(reader, 'resume');
    while (held.length > 0) held.shift()!();
    await resumed;
    expect(reader.isPaused()).toBe(false);
  });

  it('closes a socket whose own FIN came first once its peer ends, with no shutdown: the far end gets every byte and a FIN', async () => {
    const client = await socketPair();
    const target = await socketPair();
    splice(client.peer, target.peer);
    const clientClosed = once(client.peer, 'close');
    const shutdowns: string[] = [];
    for (const [name, s] of [['client', client.peer], ['target', target.peer]] as const) s.on('finish', () => shutdowns.push(name));
    // The client sends and ends first (its FIN ends the target side, a shutdown); the target answers and ends last.
    client.far.end('request');
    const request = Buffer.concat(await readToEnd(target.far));
    expect(String(request)).toBe('request');
    const answer = readToEnd(client.far);
    let reset = false;
    client.far.on('error', () => { reset = true; });
    target.far.end(Buffer.alloc(100_000, 7));
    const got = Buffer.concat(await answer);
    expect(got.equals(Buffer.alloc(100_000, 7))).toBe(true);
    await clientClosed;
    expect(reset).toBe(false);
    // The target side was shut down (its peer had not ended yet); the client's side was closed outright.
    expect(shutdowns).toEqual(['target']);
  });
});

/** Everything a socket reads until its 'end'. */
async function readToEnd(socket: Socket): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  await once(socket, 'end');
  return chunks;
}
