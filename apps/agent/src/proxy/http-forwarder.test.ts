import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_HEAD_BYTES, MAX_HEADER_LINES } from './http-message-head.js';
import { access, basic, closed, destroyTestClients, rawConnect, readAll, readUntil, startModem } from './test-support.js';
import type { TestModem } from './test-support.js';

// The framing the forwarder handles itself since it replaced Node's HTTP server and client (decision 048): response
// bodies by length, by chunks, until close, and none (HEAD, 204, 304); Connection: close both ways; Expect:
// 100-continue; pipelined requests; a kept target connection closed under a request; oversized and malformed heads.
// The origin is a raw TCP server that answers each request head with the bytes a test scripts for its path.

const PORT = access('p1');
const AUTH = basic(PORT.login, PORT.password);

interface ScriptedOrigin {
  host: string;
  port: number;
  /** Every request head (and body) as the origin read it, by connection. */
  seen: string[][];
  server: Server;
}

/** Script: the bytes to answer a request with (by its path), or 'hang-up' to close the connection unanswered. */
type Script = (path: string, request: string, connection: number, socket: Socket) => string | 'hang-up' | null;
let script: Script = () => null;
let origin: ScriptedOrigin;
let modem: TestModem;

async function startScriptedOrigin(host: string): Promise<ScriptedOrigin> {
  const seen: string[][] = [];
  const server = createServer((socket) => {
    const index = seen.push([]) - 1;
    let buf = '';
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        const chunked = /\r\ntransfer-encoding: *chunked/i.test(buf.slice(0, end));
        const bodyEnd = chunked ? buf.indexOf('0\r\n\r\n', end) + 5 : end + 4 + length;
        if ((chunked && bodyEnd < 5) || buf.length < bodyEnd) return;
        const request = buf.slice(0, bodyEnd);
        buf = buf.slice(bodyEnd);
        seen[index]!.push(request);
        const path = request.split(' ')[1]!;
        const answer = script(path, request, index, socket);
        if (answer === 'hang-up') socket.destroy();
        else if (answer !== null) socket.write(answer);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { host, port: (server.address() as { port: number }).port, seen, server };
}

function get(path: string, extra = '', method = 'GET', version = '1.1'): string {
  return `${method} http://${origin.host}:${origin.port}${path} HTTP/${version}\r\nHost: ${origin.host}:${origin.port}\r\n` +
    `Proxy-Authorization: ${AUTH}\r\n${extra}\r\n`;
}

function text(data: Buffer): string {
  return data.toString('latin1');
}

beforeAll(async () => {
  origin = await startScriptedOrigin('127.0.0.57');
});
afterAll(async () => {
  await new Promise((resolve) => origin.server.close(resolve));
});
afterEach(async () => {
  await destroyTestClients();
  await modem?.close();
  origin.seen.length = 0;
  script = () => null;
});

const OK = (body: string, extra = '') => `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;

describe('HTTP forwarder: framing it handles itself', () => {
  it('passes a chunked response on as it came and keeps both connections; an HTTP/1.0 client gets it decoded, then close', async () => {
    const chunkedBody = '5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n';
    script = (path) => path === '/chunked'
      ? `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n${chunkedBody}`
      : OK('after');
    modem = await startModem();
    const client = await rawConnect(modem.http);
    client.write(get('/chunked'));
    const first = text(await readUntil(client, (d) => text(d).endsWith(chunkedBody)));
    expect(first).toBe(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${chunkedBody}`);
    client.write(get('/after'));
    expect(text(await readUntil(client, (d) => text(d).endsWith('after')))).toBe(OK('after'));
    expect(origin.seen).toHaveLength(1); // one kept target connection carried both

    const old = await rawConnect(modem.http);
    old.write(get('/chunked', '', 'GET', '1.0'));
    expect(text(await readAll(old))).toBe('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello world');
  });

  it('HEAD, 204 and 304 carry no body whatever their Content-Length says; the next request on the connection is read right', async () => {
    script = (path, request) => {
      if (request.startsWith('HEAD')) return 'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n';
      if (path === '/204') return 'HTTP/1.1 204 No Content\r\n\r\n';
      if (path === '/304') return 'HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n';
      return OK('marker');
    };
    modem = await startModem();
    const client = await rawConnect(modem.http);
    for (const [request, expected] of [
      [get('/head', '', 'HEAD'), 'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n'],
      [get('/204'), 'HTTP/1.1 204 No Content\r\n\r\n'],
      [get('/304'), 'HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n'],
      [get('/marker'), OK('marker')],
    ] as const) {
      client.write(request);
      expect(text(await readUntil(client, (d) => d.length >= expected.length))).toBe(expected);
    }
    expect(origin.seen).toHaveLength(1);
    expect(origin.seen[0]).toHaveLength(4);
  });

  it('a response that runs until the target closes ends the client connection too, with Connection: close', async () => {
    script = (_path, _request, _c, socket) => {
      socket.end('HTTP/1.1 200 OK\r\n\r\nuntil close');
      return null;
    };
    modem = await startModem();
    const client = await rawConnect(modem.http);
    client.write(get('/eof'));
    expect(text(await readAll(client))).toBe('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil close');
  });

  it('Connection: close from the client is answered with it and the connection closed; the target connection is kept', async () => {
    script = () => OK('bye');
    modem = await startModem();
    const client = await rawConnect(modem.http);
    client.write(get('/bye', 'Connection: close\r\n'));
    expect(text(await readAll(client))).toBe(OK('bye', 'Connection: close\r\n'));
    const again = await rawConnect(modem.http);
    again.write(get('/again'));
    await readUntil(again, (d) => text(d).endsWith('bye'));
    expect(origin.seen).toHaveLength(1);
    expect(origin.seen[0]![0]).not.toMatch(/connection: close/i);
  });

  it('Expect: 100-continue: the client gets one 100 from the proxy, sends its body, and the target\'s own 100 stays on its hop', async () => {
    script = () => `HTTP/1.1 100 Continue\r\n\r\n${OK('got it')}`;
    modem = await startModem();
    const client = await rawConnect(modem.http);
    client.write(get('/upload', 'Expect: 100-continue\r\nContent-Length: 5\r\n', 'POST'));
    expect(text(await readUntil(client, (d) => text(d).includes('\r\n\r\n')))).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    client.write('hello');
    expect(text(await readUntil(client, (d) => text(d).endsWith('got it')))).toBe(OK('got it')); // no second 100
    expect(origin.seen[0]![0]).toMatch(/\r\nExpect: 100-continue\r\n[^]*\r\n\r\nhello$/);
  });

  it('pipelined requests are answered in order, each once', async () => {
    script = (path) => OK(path);
    modem = await startModem();
    const client = await rawConnect(modem.http);
    client.write(get('/one') + get('/two', 'Content-Length: 3\r\n', 'POST') + 'abc' + get('/three'));
    const all = OK('/one') + OK('/two') + OK('/three');
    expect(text(await readUntil(client, (d) => d.length >= all.length))).toBe(all);
    expect(origin.seen.flat().map((r) => r.split(' ')[1])).toEqual(['/one', '/two', '/three']);
    expect(origin.seen.flat()[1]!.endsWith('\r\n\r\nabc')).toBe(true);
  });

  it('a kept target connection closed by the target, idle or just as a request came, does not fail the next request', async () => {
    // The first connection answers once and closes when idle; the second hangs up on its second request unanswered.
    script = (path, _request, connection, socket) => {
      if (path === '/idle-close') {
        setTimeout(() => socket.destroy(), 10);
        return OK('first');
      }
      if (path === '/race' && connection === 1) return 'hang-up';
      return OK(`${path} on ${connection}`);
    };
    modem = await startModem();
    const client = await rawConnect(modem.http);
    client.write(get('/idle-close'));
    await readUntil(client, (d) => text(d).endsWith('first'));
    await vi.waitFor(() => expect(origin.seen).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the target closed its end of the kept connection
    client.write(get('/fresh'));
    expect(text(await readUntil(client, (d) => text(d).endsWith('/fresh on 1')))).toContain('HTTP/1.1 200');
    client.write(get('/race'));
    // Connection 1 hung up on /race unanswered: the proxy sent it once more on a new connection (2), which answered.
    expect(text(await readUntil(client, (d) => text(d).endsWith('/race on 2')))).toContain('/race on 2');
    expect(origin.seen.map((c) => c.map((r) => r.split(' ')[1]))).toEqual([['/idle-close'], ['/fresh', '/race'], ['/race']]);
  });

  it('a request with a body is not sent twice: a kept connection that hangs up on it is a 502', async () => {
    script = (path) => (path === '/post' ? 'hang-up' : OK('warm'));
    modem = await startModem();
    const client = await rawConnect(modem.http);
    client.write(get('/warm'));
    await readUntil(client, (d) => text(d).endsWith('warm'));
    client.write(get('/post', 'Content-Length: 4\r\n', 'POST') + 'body');
    expect(text(await readUntil(client, (d) => text(d).includes('HTTP/1.1 502')))).toContain('HTTP/1.1 502');
    expect(origin.seen.flat().filter((r) => r.includes('/post'))).toHaveLength(1);
  });

  it('timers: a response quiet past connectTimeoutMs (but not idleTimeoutMs) once begun is delivered; a kept client idle past idleTimeoutMs is closed', async () => {
    script = (_path, _request, _c, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nsl');
      setTimeout(() => socket.write('ow'), 600);
      return null;
    };
    modem = await startModem({ limits: { connectTimeoutMs: 150, idleTimeoutMs: 1500, handshakeTimeoutMs: 150 } });
    const client = await rawConnect(modem.http);
    client.write(get('/slow'));
    expect(text(await readUntil(client, (d) => text(d).endsWith('slow')))).toBe(OK('slow'));
    const answered = Date.now();
    await closed(client);
    expect(Date.now() - answered).toBeGreaterThanOrEqual(1400);
  });

  it('a request head and a response head of exactly 431 bytes are forwarded (431 is a length there, not a refusal)', async () => {
    modem = await startModem();
    const padded = (head: (pad: string) => string): string => {
      const pad = 'a'.repeat(431 - head('').length);
      const out = head(pad);
      expect(out.length).toBe(431);
      return out;
    };
    const response = padded((pad) => `HTTP/1.1 200 OK\r\nX-Pad: ${pad}\r\nContent-Length: 4\r\n\r\n`);
    script = () => `${response}done`;
    const client = await rawConnect(modem.http);
    client.write(padded((pad) => get('/exact', `X-Pad: ${pad}\r\n`)));
    const answer = text(await readUntil(client, (d) => text(d).endsWith('done')));
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(origin.seen.flat().map((r) => r.split(' ')[1])).toEqual(['/exact']);
    client.end();
    await closed(client);
  });

  it('oversized heads get 431 and malformed ones 400, and are closed, never reaching the target', async () => {
    modem = await startModem();
    for (const raw of [
      `${get('/big', `X-Big: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n`)}`,
      `${get('/big-unended', `X-Big: ${'a'.repeat(MAX_HEAD_BYTES)}`).slice(0, -2)}`,
      get('/lines', Array.from({ length: MAX_HEADER_LINES + 1 }, (_, i) => `X-${i}: v\r\n`).join('')),
    ]) {
      const client = await rawConnect(modem.http);
      client.write(raw);
      expect(text(await readAll(client))).toMatch(/^HTTP\/1\.1 431 /);
    }
    for (const raw of ['GET http://127.0.0.1/ HTTP/1.1\r\nBad Name: x\r\n\r\n', 'GET http://127.0.0.1/\r\n\r\n']) {
      const client = await rawConnect(modem.http);
      client.write(raw);
      expect(text(await readAll(client))).toMatch(/^HTTP\/1\.1 400 /);
    }
    // The marker: a good request afterwards is the first the target sees.
    script = () => OK('fine');
    const client = await rawConnect(modem.http);
    client.write(get('/fine'));
    await readUntil(client, (d) => text(d).endsWith('fine'));
    expect(origin.seen.flat().map((r) => r.split(' ')[1])).toEqual(['/fine']);
    client.end();
    await closed(client);
  });
});
