import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  access, basic, destroyTestClients, EGRESS, httpConnect, rawConnect, readAll, readUntil, seenThrough, startModem,
  startTargets, wholeResponse,
} from './test-support.js';
import type { Targets, TestModem } from './test-support.js';

// HTTP CONNECT as clients send it (issue 31, item 1: a connection that opens with CONNECT is read by the proxy
// itself, any other by Node's HTTP server). These are the protocol's cases, which Node's server passed too.

const P1 = access('p1');
const AUTH = basic(P1.login, P1.password);

let targets: Targets;
let modem: TestModem;

beforeAll(async () => {
  targets = await startTargets();
  modem = await startModem({ ports: [P1] });
});
afterAll(async () => {
  await modem.close();
  await targets.close();
});
afterEach(destroyTestClients);

const headOf = (data: Buffer) => data.subarray(0, data.indexOf('\r\n\r\n')).toString('latin1');
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('HTTP CONNECT: how the request arrives', () => {
  it('a head written in pieces, down to single bytes, opens the tunnel', async () => {
    const socket = await rawConnect(modem.http);
    const head = `CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization: ${AUTH}\r\n\r\n`;
    for (const piece of ['C', 'ONNE', head.slice(5, 30), head.slice(30, -1), head.slice(-1)]) {
      socket.write(piece);
      await nextTurn();
    }
    const answer = await readUntil(socket, (d) => d.includes('\r\n\r\n'));
    expect(headOf(answer)).toMatch(/^HTTP\/1\.1 200/);
    const rest = answer.subarray(answer.indexOf('\r\n\r\n') + 4);
    if (rest.length > 0) socket.unshift(rest);
    expect(await seenThrough(socket)).toBe(EGRESS);
  });

  it('bytes sent right behind the head, in the same write, reach the target first and in order', async () => {
    const socket = await rawConnect(modem.http);
    socket.write(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.0\r\nproxy-authorization:   ${AUTH}  \r\n\r\nearly-bytes|`);
    const data = await readUntil(socket, (d) => d.includes('early-bytes|'));
    const text = data.toString('latin1');
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    // The echo target first says who connected, then returns what it got.
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(`${EGRESS}\nearly-bytes|`);
  });

  it('the first of two Proxy-Authorization headers is the one checked', async () => {
    const socket = await rawConnect(modem.http);
    socket.write(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization: ${AUTH}\r\n` +
      `Proxy-Authorization: ${basic(P1.login, 'wrong')}\r\n\r\n`);
    expect(headOf(await readUntil(socket, (d) => d.includes('\r\n\r\n')))).toMatch(/^HTTP\/1\.1 200/);
    const refused = await rawConnect(modem.http);
    refused.write(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization: ${basic(P1.login, 'wrong')}\r\n` +
      `Proxy-Authorization: ${AUTH}\r\n\r\n`);
    expect((await readAll(refused)).toString('latin1')).toMatch(/^HTTP\/1\.1 407/);
  });

  it('a CONNECT after a plain request on the same keep-alive connection opens the tunnel', async () => {
    const socket = await rawConnect(modem.http);
    socket.write(`GET http://127.0.0.1:${targets.httpPort}/first HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Authorization: ${AUTH}\r\n\r\n`);
    const first = await readUntil(socket, wholeResponse);
    expect(headOf(first)).toMatch(/^HTTP\/1\.1 200/);
    const { status } = await new Promise<{ status: string }>((resolve) => {
      socket.write(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization: ${AUTH}\r\n\r\n`);
      void readUntil(socket, (d) => d.includes('\r\n\r\n')).then((d) => {
        const end = d.indexOf('\r\n\r\n') + 4;
        if (d.length > end) socket.unshift(d.subarray(end));
        resolve({ status: headOf(d) });
      });
    });
    expect(status).toMatch(/^HTTP\/1\.1 200/);
    expect(await seenThrough(socket)).toBe(EGRESS);
  });
});

describe('HTTP CONNECT: what is refused', () => {
  it('answers 400 and closes a malformed CONNECT head, and never reaches the target', async () => {
    const seenBefore = targets.seen.length;
    const bad = [
      `CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization : ${AUTH}\r\n\r\n`, // space before the colon
      `CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization: ${AUTH}\r\nX: a\nY: b\r\n\r\n`, // a bare LF
      `CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization: ${AUTH}\r\nX: a\x00b\r\n\r\n`, // NUL
      `CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization: ${AUTH}\r\n folded\r\n\r\n`, // obs-fold
      `CONNECT 127.0.0.1:nope HTTP/1.1\r\nProxy-Authorization: ${AUTH}\r\n\r\n`, // no port number
    ];
    for (const raw of bad) {
      const socket = await rawConnect(modem.http);
      socket.write(raw);
      expect((await readAll(socket)).toString('latin1'), JSON.stringify(raw)).toMatch(/^HTTP\/1\.1 400 /);
    }
    // The marker: a good CONNECT after them is the first connection the target saw since.
    const { socket, status } = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
    expect(status).toBe(200);
    await seenThrough(socket);
    expect(targets.seen.length).toBe(seenBefore + 1);
  });

  it('answers 431 and closes a CONNECT head larger than the proxy reads, ended or still coming', async () => {
    for (const end of ['\r\n\r\n', '']) {
      const socket = await rawConnect(modem.http);
      socket.write(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}${end}`);
      expect((await readAll(socket)).toString('latin1')).toMatch(/^HTTP\/1\.1 431 /);
    }
  });

  it('a CONNECT head that trickles in is cut at handshakeTimeoutMs, though it is never idle that long', async () => {
    const quick = await startModem({ ports: [P1], limits: { handshakeTimeoutMs: 300 } });
    try {
      const socket = await rawConnect(quick.http);
      const head = Buffer.from(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization: ${AUTH}\r\n\r\n`);
      let sent = 0;
      // One byte every 50 ms would take seconds; the proxy must close the connection long before the head is whole.
      const drip = setInterval(() => {
        if (!socket.destroyed && sent < head.length) socket.write(head.subarray(sent, ++sent));
      }, 50);
      try {
        await readAll(socket);
      } finally {
        clearInterval(drip);
      }
      expect(sent).toBeLessThan(head.length);
      await vi.waitFor(() => expect(quick.connectionCount).toBe(0));
    } finally {
      await quick.close();
    }
  });

  it('a client that leaves before its CONNECT head ends leaves nothing open', async () => {
    const socket = await rawConnect(modem.http);
    socket.end(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Auth`);
    await readAll(socket);
    await vi.waitFor(() => expect(modem.connectionCount).toBe(0));
  });
});

/**
 * A target whose SYNs go unanswered: a listener in a stopped process with its accept queue filled (the kernel then
 * drops further SYNs), so a connection to it neither completes nor fails. Loopback only, no route needed.
 */
async function unansweringTarget(): Promise<{ port: number; close: () => void }> {
  const script = "require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, function () " +
    "{ console.log(this.address().port); })";
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const port = Number(String(line).trim());
  child.kill('SIGSTOP');
  // Fill the accept queue (backlog 1 holds two); a connection past it stays in SYN_SENT.
  const fillers: Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const filler = connect(port, '127.0.0.1');
    filler.on('error', () => {});
    await once(filler, 'connect');
    fillers.push(filler);
  }
  return { port, close: () => { for (const f of fillers) f.destroy(); child.kill('SIGKILL'); } };
}

describe('HTTP CONNECT: a target that never answers', () => {
  it('answers 504 at connectTimeoutMs, for each of several tunnels waiting at once, and lets their connections go', async () => {
    const target = await unansweringTarget();
    const quick = await startModem({ ports: [P1], limits: { connectTimeoutMs: 200 } });
    try {
      const started = Date.now();
      const answers = await Promise.all([0, 1, 2].map(async () => {
        const socket = await rawConnect(quick.http);
        socket.write(`CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nProxy-Authorization: ${AUTH}\r\n\r\n`);
        return (await readUntil(socket, wholeResponse)).toString('latin1');
      }));
      for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 504[^]*did not answer in time/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      await vi.waitFor(() => expect(quick.connectionCount).toBe(0));
    } finally {
      await quick.close();
      target.close();
    }
  });
});
