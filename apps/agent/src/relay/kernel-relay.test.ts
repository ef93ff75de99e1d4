import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelRelay, type KernelRelay, type RelayEnd } from './kernel-relay.js';

// The kernel relay (kernel-relay.c) built on this machine as the gateway builds it, between real TCP connections on
// loopback: client ⇄ [front | relay | back] ⇄ far end. A machine without a C compiler or Node's headers fails here.

let dataDir: string;
let relay: KernelRelay;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cellport-relay-'));
  relay = await kernelRelay(dataDir);
}, 60_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const servers: Server[] = [];
afterAll(() => { for (const s of servers) s.close(); });

function listen(onSocket: (s: Socket) => void): Promise<number> {
  const server = createServer({ allowHalfOpen: true, pauseOnConnect: true }, onSocket);
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

const closed = (s: Socket) => new Promise<void>((resolve) => { if (s.closed) resolve(); else s.once('close', () => resolve()); });
const digest = (chunks: Buffer[]) => createHash('sha256').update(Buffer.concat(chunks)).digest('hex');

/** What a socket receives until its end, and its digest. */
function received(s: Socket): Promise<{ bytes: number; sha: string }> {
  const chunks: Buffer[] = [];
  s.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) => s.once('end', () => resolve({ bytes: chunks.reduce((n, c) => n + c.length, 0), sha: digest(chunks) })));
}

/**
 * A client connected through a front that joins its accepted socket to a connection to the far end, in the kernel.
 * `far` gets the far end's socket.
 */
async function relayed(far: (s: Socket) => void) {
  const farPort = await listen((s) => { s.resume(); far(s); });
  let joined!: (v: { front: Socket; back: Socket; ok: boolean; end: Promise<RelayEnd> }) => void;
  const ready = new Promise<{ front: Socket; back: Socket; ok: boolean; end: Promise<RelayEnd> }>((r) => { joined = r; });
  const frontPort = await listen((front) => {
    const back = connect({ port: farPort, host: '127.0.0.1', allowHalfOpen: true });
    back.pause();
    back.once('connect', () => {
      let ended!: (e: RelayEnd) => void;
      const end = new Promise<RelayEnd>((r) => { ended = r; });
      // A socket made by connect() reads until it is paused; its first read may already be under way.
      const ok = relay.join(front, back, ended);
      joined({ front, back, ok, end });
    });
  });
  const client = connect({ port: frontPort, host: '127.0.0.1', allowHalfOpen: true });
  const at = await ready;
  return { client, ...at };
}

describe('kernel relay', () => {
  it('moves bulk both ways, byte for byte, passes each FIN on, then closes both sockets and tells the bytes', async () => {
    const up = randomBytes(6 * 1024 * 1024 + 17);
    const down = randomBytes(3 * 1024 * 1024 + 5);
    let farGot!: Promise<{ bytes: number; sha: string }>;
    const { client, front, back, ok, end } = await relayed((s) => {
      farGot = received(s);
      // The far end answers only after the client's FIN came through: half-close travels.
      s.once('end', () => s.end(down));
    });
    expect(ok).toBe(true);
    const clientGot = received(client);
    client.end(up);
    expect(await farGot).toEqual({ bytes: up.length, sha: digest([up]) });
    expect(await clientGot).toEqual({ bytes: down.length, sha: digest([down]) });
    expect(await end).toEqual({ aToB: up.length, bToA: down.length, error: '' });
    await Promise.all([closed(front), closed(back)]);
    expect(relay.bytes(front)).toBeNull();
  });

  it('counts bytes while it runs', async () => {
    let farSocket!: Socket;
    const { client, front, ok, end } = await relayed((s) => { farSocket = s; });
    expect(ok).toBe(true);
    const echoed = new Promise<void>((resolve) => {
      let n = 0;
      client.on('data', (c: Buffer) => { n += c.length; if (n === 5) resolve(); });
    });
    await new Promise<void>((resolve) => { const wait = () => (farSocket ? resolve() : setImmediate(wait)); wait(); });
    farSocket.on('data', (c: Buffer) => farSocket.write(c));
    client.write('hello');
    await echoed;
    // The thread counts a splice after the bytes left, so the client may have them a moment before the count.
    const counted = await new Promise<{ read: number; written: number } | null>((resolve) => {
      const look = () => { const n = relay.bytes(front); if (n?.written === 5) resolve(n); else setImmediate(look); };
      look();
    });
    expect(counted).toEqual({ read: 5, written: 5 });
    client.end();
    farSocket.end();
    expect(await end).toMatchObject({ aToB: 5, bToA: 5 });
  });

  /** The far end's 'end' (its FIN came: the relay closed the back socket), once the far end has accepted. */
  const farEnded = (s: Socket) => new Promise<void>((resolve) => { if (s.readableEnded) resolve(); else s.once('end', () => resolve()); });
  const accepted = (far: () => Socket | undefined) => new Promise<Socket>((resolve) => {
    const wait = () => { const s = far(); if (s) resolve(s); else setImmediate(wait); };
    wait();
  });

  it('destroying either socket ends the relay: both close, both far ends see their connection end', async () => {
    let farSocket: Socket | undefined;
    const { client, front, back, ok, end } = await relayed((s) => { farSocket = s; });
    expect(ok).toBe(true);
    const far = await accepted(() => farSocket);
    const clientEnded = new Promise<void>((resolve) => { client.once('end', () => resolve()); client.resume(); });
    front.destroy();
    expect(await end).toMatchObject({ aToB: 0, bToA: 0 });
    await Promise.all([closed(front), closed(back), clientEnded, farEnded(far)]);
    expect(relay.bytes(front)).toBeNull();
  });

  it('a reset on one side ends the relay with an error and closes the other', async () => {
    let farSocket: Socket | undefined;
    const { client, back, ok, end } = await relayed((s) => { farSocket = s; s.on('error', () => {}); });
    expect(ok).toBe(true);
    const far = await accepted(() => farSocket);
    const got = new Promise<void>((resolve) => far.once('data', () => resolve()));
    client.write('x');
    await got;
    client.resetAndDestroy();
    const { error } = await end;
    expect(error).toMatch(/^E[A-Z]+$/);
    await Promise.all([closed(back), farEnded(far)]);
  });

  it('a relay ended with bytes still in its pipe passes none of them to the next relay (its pipe is closed, not pooled)', async () => {
    // The far end does not read: the relay's pipe fills behind its full socket buffers.
    let farSocket: Socket | undefined;
    const stalled = await relayed((s) => { farSocket = s; s.pause(); });
    expect(stalled.ok).toBe(true);
    const far = await accepted(() => farSocket);
    const junk = Buffer.alloc(1024 * 1024, 0x5a);
    const pump = () => { while (stalled.client.write(junk)); };
    stalled.client.on('drain', pump);
    pump();
    await new Promise<void>((resolve) => {
      const look = () => ((stalled.front.destroyed ? 0 : relay.held(stalled.front)?.from ?? 0) > 0 ? resolve() : setImmediate(look));
      look();
    });
    stalled.client.removeListener('drain', pump);
    stalled.client.on('error', () => {});
    stalled.front.destroy();
    await stalled.end;
    far.destroy();
    expect(relay.spareBytes()).toBe(0);
    // The next relay carries exactly its own bytes.
    const message = randomBytes(300 * 1024);
    let farGot!: Promise<{ bytes: number; sha: string }>;
    const next = await relayed((s) => { farGot = received(s); s.once('end', () => s.end()); });
    expect(next.ok).toBe(true);
    next.client.end(message);
    expect(await farGot).toEqual({ bytes: message.length, sha: digest([message]) });
    next.client.resume();
    await next.end;
  });

  it('a relay that ends as soon as it is joined ends alone: thousands of them, every one clean and exact, none ending another', async () => {
    // Both far ends have sent their bytes and their FIN before the join, so the relay thread can finish a relay the
    // moment it learns of its first socket. It once learned of the second only after that (join() registered one
    // socket, then the other), so a finished, freed relay stayed registered: a later relay at the same address was
    // ended with ECONNRESET by the old socket's hang-up, or the process aborted on a bad free().
    const accepted: Socket[] = [];
    const port = await listen((s) => accepted.push(s));
    const pair = async (i: number) => {
      const first = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      const second = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      await Promise.all([first, second].map((c) => new Promise((r) => c.once('connect', r))));
      await new Promise<void>((resolve) => { const look = () => (accepted.length >= 2 ? resolve() : setImmediate(look)); look(); });
      const [a, b] = accepted.splice(0, 2) as [Socket, Socket];
      // Which accepted socket belongs to which client: by the client's local port.
      const [fromFirst, fromSecond] = a.remotePort === first.localPort ? [a, b] : [b, a];
      const firstGot = received(first);
      const secondGot = received(second);
      const up = Buffer.from(`up ${i} `.repeat(1 + (i % 7)));
      const down = Buffer.from(`down ${i} `.repeat(1 + (i % 5)));
      await Promise.all([new Promise<void>((r) => first.end(up, r)), new Promise<void>((r) => second.end(down, r))]);
      const end = new Promise<RelayEnd>((resolve) => { expect(relay.join(fromFirst, fromSecond, resolve)).toBe(true); });
      expect(await end).toEqual({ aToB: up.length, bToA: down.length, error: '' });
      expect(await secondGot).toEqual({ bytes: up.length, sha: digest([up]) });
      expect(await firstGot).toEqual({ bytes: down.length, sha: digest([down]) });
    };
    for (let batch = 0; batch < 30; batch++) {
      // Serial: sockets accepted in pairs, in order (the listener's queue is FIFO).
      for (let i = 0; i < 100; i++) await pair(batch * 100 + i);
    }
  }, 60_000);

  it('hands nothing over that is not plain TCP at rest: a socket reading, or holding bytes to write', async () => {
    const farPort = await listen((s) => s.resume());
    const a = connect({ port: farPort, host: '127.0.0.1' });
    const b = connect({ port: farPort, host: '127.0.0.1' });
    await Promise.all([a, b].map((s) => new Promise((r) => s.once('connect', r))));
    a.resume(); // reading
    expect(relay.join(a, b)).toBe(false);
    a.pause();
    expect(relay.join(b, b)).toBe(false);
    expect(relay.bytes(a)).toBeNull();
    expect(relay.bytes(b)).toBeNull();
    a.destroy();
    b.destroy();
  });
});
