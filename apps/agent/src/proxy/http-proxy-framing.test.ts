import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  access, basic, closed, destroyTestClients, rawConnect, readUntil, responseJson, startModem, startRecordingOrigin,
  wholeResponse,
} from './test-support.js';
import type { RecordingOrigin, TestModem } from './test-support.js';

// Issue 26, item 1: request smuggling between the customers of one shared modem. Two customer ports share the modem's
// HTTP listener; the origin records exactly the bytes each upstream connection brought.

const ATTACKER = access('attacker');
const VICTIM = access('victim');

let origin: RecordingOrigin;
let modem: TestModem;

beforeAll(async () => {
  origin = await startRecordingOrigin('127.0.0.55');
});
afterAll(async () => {
  await origin.close();
});
afterEach(async () => {
  await destroyTestClients();
  await modem?.close();
  origin.connections.length = 0;
  origin.requests.length = 0;
});

type Seen = { method: string; path: string; cookie?: string; body: string };

function request(port: { login: string; password: string }, method: string, path: string, extra = '', body = ''): string {
  return `${method} http://${origin.host}:${origin.port}${path} HTTP/1.1\r\nHost: ${origin.host}:${origin.port}\r\n` +
    `Proxy-Authorization: ${basic(port.login, port.password)}\r\n${extra}\r\n${body}`;
}

function chunked(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;
}

async function exchange(socket: Awaited<ReturnType<typeof rawConnect>>, raw: string): Promise<Seen> {
  socket.write(raw);
  return responseJson<Seen>(await readUntil(socket, wholeResponse));
}

describe('HTTP proxy: request framing between customers of one shared modem', () => {
  it('a chunked body on GET, HEAD, DELETE and OPTIONS reaches the origin framed, and cannot smuggle a request into the next customer\'s', async () => {
    modem = await startModem({ ports: [ATTACKER, VICTIM] });
    // A whole request hidden in the body, whose own body (10 bytes) would swallow the start of the next request on
    // the same upstream connection: what the victim sent would arrive as the body of the attacker's POST.
    const smuggled = `POST /smuggled HTTP/1.1\r\nHost: ${origin.host}\r\nContent-Length: 10\r\n\r\n`;
    for (const method of ['GET', 'HEAD', 'DELETE', 'OPTIONS']) {
      const attacker = await rawConnect(modem.http);
      attacker.write(request(ATTACKER, method, `/attack-${method}`, 'Transfer-Encoding: chunked\r\n', chunked(smuggled)));
      const answer = (await readUntil(attacker, (d) => d.includes('\r\n\r\n'))).toString('latin1');
      expect(answer).toMatch(/^HTTP\/1\.1 200/);

      const victim = await rawConnect(modem.http);
      const seen = await exchange(victim, request(VICTIM, 'GET', `/victim-${method}`, 'Cookie: session=victim-secret\r\n'));
      expect(seen).toEqual({ method: 'GET', path: `/victim-${method}`, cookie: 'session=victim-secret', body: '' });
      attacker.destroy();
      victim.destroy();
    }
    // The origin read each attacker's request as one, with the hidden request as its body, and nothing else.
    expect(origin.requests.map((r) => r.path).filter((p) => !p.startsWith('/victim'))).toEqual(
      ['/attack-GET', '/attack-HEAD', '/attack-DELETE', '/attack-OPTIONS']);
    for (const r of origin.requests.filter((q) => q.path.startsWith('/attack'))) expect(r.body).toBe(smuggled);
    for (const bytes of origin.connections) {
      if (bytes.includes('/attack')) {
        expect(bytes).toMatch(/\r\ntransfer-encoding: chunked\r\n/i);
        expect(bytes).not.toContain('victim');
      }
    }
  });

  it('the ports of a shared modem never share an upstream connection; each keeps its own pool', async () => {
    modem = await startModem({ ports: [ATTACKER, VICTIM] });
    const a = await rawConnect(modem.http);
    const b = await rawConnect(modem.http);
    for (let i = 0; i < 3; i++) {
      expect((await exchange(a, request(ATTACKER, 'GET', `/a${i}`))).path).toBe(`/a${i}`);
      expect((await exchange(b, request(VICTIM, 'GET', `/b${i}`))).path).toBe(`/b${i}`);
    }
    // One keep-alive upstream connection per port carried all three of its requests (the pool works), and the other
    // port's requests went on another.
    const byConnection = new Map<number, string[]>();
    for (const r of origin.requests) byConnection.set(r.connection, [...(byConnection.get(r.connection) ?? []), r.path]);
    expect([...byConnection.values()].sort()).toEqual([['/a0', '/a1', '/a2'], ['/b0', '/b1', '/b2']]);
    expect((modem as unknown as {forwardPoolCount?: number}).forwardPoolCount ?? -1).toBe(2);
  });

  it('a body on a method that carries none is not pooled upstream; a POST body is, with its length', async () => {
    modem = await startModem({ ports: [ATTACKER] });
    const client = await rawConnect(modem.http);
    expect((await exchange(client, request(ATTACKER, 'GET', '/with-body', 'Content-Length: 5\r\n', 'hello'))).body).toBe('hello');
    await vi.waitFor(() => expect(origin.open.size).toBe(0), { timeout: 10_000 });
    expect((await exchange(client, request(ATTACKER, 'POST', '/post', 'Content-Length: 5\r\n', 'hello'))).body).toBe('hello');
    expect((await exchange(client, request(ATTACKER, 'POST', '/chunked', 'Transfer-Encoding: chunked\r\n', chunked('hello')))).body).toBe('hello');
    expect((await exchange(client, request(ATTACKER, 'GET', '/after')))).toMatchObject({ path: '/after', body: '' });
    expect(origin.connections).toHaveLength(2);
    expect(origin.connections[0]).toMatch(/\r\nconnection: close\r\n/i);
    expect(origin.connections[1]).toContain('/post');
    expect(origin.connections[1]).toContain('/after');
    expect(origin.open.size).toBe(1);
  });

  it('removing a port closes its upstream pool', async () => {
    modem = await startModem({ ports: [ATTACKER, VICTIM] });
    const client = await rawConnect(modem.http);
    await exchange(client, request(ATTACKER, 'GET', '/pooled'));
    await exchange(await rawConnect(modem.http), request(VICTIM, 'GET', '/kept'));
    expect(origin.open.size).toBe(2);
    modem.setPorts([VICTIM]);
    await vi.waitFor(() => expect(origin.open).toEqual(new Set([1])), { timeout: 10_000 });
    expect((modem as unknown as {forwardPoolCount?: number}).forwardPoolCount ?? -1).toBe(1);
    await closed(client); // its own connection was cut with the port
  });
});
