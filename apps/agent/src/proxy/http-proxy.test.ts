import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { ProxyAgent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTargetPolicy } from './target-policy.js';
import {
  access, basic, closed, EGRESS, httpConnect, ipv6Available, rawConnect, readAll, readUntil, seenThrough, startModem,
  startTargets, wholeResponse,
  destroyTestClients,
} from './test-support.js';
import type { Targets, TestModem } from './test-support.js';

const P1 = access('p1', { whitelist: ['127.0.0.77'] });
const AUTH = basic(P1.login, P1.password);

let targets: Targets;
let modem: TestModem;

beforeAll(async () => {
  targets = await startTargets();
  modem = await startModem({ ports: [P1, access('off', { state: 'suspended' })] });
});
afterAll(async () => {
  await modem.close();
  await targets.close();
});
afterEach(destroyTestClients);

/** A plain (absolute-URI) request through the proxy with node's http client. */
function proxied(path: string, headers: Record<string, string> = {}, localAddress?: string):
  Promise<{ res: IncomingMessage; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: modem.http, path, headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP proxy: egress and forwarding', () => {
  it('plain forwarding (undici ProxyAgent, no tunnel) leaves from the egress address, IPv4 and domain targets', async () => {
    const dispatcher = new ProxyAgent({ uri: `http://127.0.0.1:${modem.http}`, token: AUTH, proxyTunnel: false });
    try {
      for (const host of ['127.0.0.1', 'localhost']) {
        const res = await request(`http://${host}:${targets.httpPort}/hello?x=1`, { dispatcher });
        const seen = (await res.body.json()) as { remote: string; url: string; headers: Record<string, string> };
        expect(res.statusCode).toBe(200);
        expect(seen.remote).toBe(EGRESS);
        expect(seen.url).toBe('/hello?x=1');
        expect(seen.headers['proxy-authorization']).toBeUndefined();
        expect(seen.headers.host).toBe(`${host}:${targets.httpPort}`);
        expect(res.headers['keep-alive']).not.toBe('timeout=5'); // the target's, for its own hop
        expect(res.headers['x-hop']).toBeUndefined(); // named by the target's Connection header
      }
    } finally {
      await dispatcher.close();
    }
  });

  it('CONNECT (undici ProxyAgent, tunnel) leaves from the egress address, IPv4 and domain targets', async () => {
    const dispatcher = new ProxyAgent({ uri: `http://127.0.0.1:${modem.http}`, token: AUTH });
    try {
      for (const host of ['127.0.0.1', 'localhost']) {
        const res = await request(`http://${host}:${targets.httpPort}/tunnelled`, { dispatcher });
        expect(((await res.body.json()) as { remote: string }).remote).toBe(EGRESS);
      }
    } finally {
      await dispatcher.close();
    }
    const { socket, status } = await httpConnect(modem.http, `localhost:${targets.tcpPort}`, AUTH);
    expect(status).toBe(200);
    expect(await seenThrough(socket)).toBe(EGRESS);
    socket.destroy();
  });

  it('keeps the client connection alive across requests, and drops hop-by-hop headers both ways', async () => {
    const socket = await rawConnect(modem.http);
    const ask = (n: number) => `GET http://127.0.0.1:${targets.httpPort}/r${n} HTTP/1.1\r\nHost: 127.0.0.1:${targets.httpPort}\r\n` +
      `Proxy-Authorization: ${AUTH}\r\nConnection: keep-alive, X-Secret\r\nX-Secret: no\r\nX-Kept: yes\r\n\r\n`;
    for (const n of [1, 2]) {
      socket.write(ask(n));
      const data = await readUntil(socket, wholeResponse);
      const text = data.toString();
      expect(text.startsWith('HTTP/1.1 200')).toBe(true);
      expect(text.toLowerCase()).not.toContain('keep-alive: timeout=5');
      expect(text.toLowerCase()).not.toContain('x-hop');
      const seen = JSON.parse(text.slice(text.indexOf('{'))) as { url: string; headers: Record<string, string> };
      expect(seen.url).toBe(`/r${n}`);
      expect(seen.headers['x-kept']).toBe('yes');
      expect(seen.headers['x-secret']).toBeUndefined();
    }
    socket.destroy();
  });

  it('forwards a request body', async () => {
    const { res, body } = await new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1', port: modem.http, method: 'POST', path: `http://127.0.0.1:${targets.httpPort}/post`,
        headers: { 'proxy-authorization': AUTH }, agent: false,
      }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => resolve({ res: r, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.write('part one, ');
      req.end('part two');
    });
    expect(res.statusCode).toBe(200);
    expect((JSON.parse(body) as { body: string }).body).toBe('part one, part two');
  });

  it('an IPv6 target (::1) from an IPv6 egress, when the machine has IPv6', async (ctx) => {
    if (!(await ipv6Available())) ctx.skip();
    const v6 = await startModem({ egress: '::1', ports: [P1] });
    try {
      const { res, body } = await new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: v6.http, path: `http://[::1]:${targets.httpPort}/v6`,
          headers: { 'proxy-authorization': AUTH }, agent: false }, (r) => {
          let text = '';
          r.on('data', (c: Buffer) => (text += c));
          r.on('end', () => resolve({ res: r, body: text }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.statusCode).toBe(200);
      expect((JSON.parse(body) as { remote: string }).remote).toBe('::1');
      const { socket, status } = await httpConnect(v6.http, `[::1]:${targets.tcpPort}`, AUTH);
      expect(status).toBe(200);
      expect(await seenThrough(socket)).toBe('::1');
      socket.destroy();
      // From an IPv6 egress an IPv4 target cannot be reached: refused as unreachable, never sent another way.
      expect((await httpConnect(v6.http, `127.0.0.1:${targets.tcpPort}`, AUTH)).status).toBe(502);
    } finally {
      await v6.close();
    }
  });
});

describe('HTTP proxy: who may use it', () => {
  const url = () => `http://127.0.0.1:${targets.httpPort}/x`;

  it('answers 407 with Proxy-Authenticate without credentials, and for a wrong password or an unknown login', async () => {
    const cases: Record<string, string>[] = [{}, { 'proxy-authorization': basic(P1.login, 'wrong') }, { 'proxy-authorization': basic('nobody', P1.password) },
      { 'proxy-authorization': 'Basic !!!' }, { 'proxy-authorization': 'Bearer abc' }];
    for (const headers of cases) {
      const { res } = await proxied(url(), headers);
      expect(res.statusCode).toBe(407);
      expect(res.headers['proxy-authenticate']).toBe('Basic realm="Cellport"');
    }
    const refused = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(P1.login, 'wrong'));
    expect(refused.status).toBe(407);
    expect(refused.head).toContain('Proxy-Authenticate: Basic realm="Cellport"');
    await closed(refused.socket);
  });

  it('lets a whitelisted client address in without credentials (plain and CONNECT)', async () => {
    const { res, body } = await proxied(url(), {}, '127.0.0.77');
    expect(res.statusCode).toBe(200);
    expect((JSON.parse(body) as { remote: string }).remote).toBe(EGRESS);
    const { socket, status } = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, undefined, '127.0.0.77');
    expect(status).toBe(200);
    expect(await seenThrough(socket)).toBe(EGRESS);
    socket.destroy();
    expect((await proxied(url(), {}, '127.0.0.78')).res.statusCode).toBe(407);
  });

  it('answers 407 to wrong credentials from a whitelisted client address: the address never makes them good', async () => {
    for (const header of [basic(P1.login, 'wrong'), basic('nobody', 'x'), 'Basic !!!']) {
      expect((await proxied(url(), { 'proxy-authorization': header }, '127.0.0.77')).res.statusCode).toBe(407);
      const refused = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, header, '127.0.0.77');
      expect(refused.status).toBe(407);
      await closed(refused.socket);
    }
    expect((await proxied(url(), { 'proxy-authorization': AUTH }, '127.0.0.77')).res.statusCode).toBe(200);
  });

  it('answers 403 with a clear text to valid credentials of a port that is not active', async () => {
    const { res, body } = await proxied(url(), { 'proxy-authorization': basic('login-off', 'secret-off') });
    expect(res.statusCode).toBe(403);
    expect(body).toMatch(/not active/);
    const refused = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic('login-off', 'secret-off'));
    expect(refused.status).toBe(403);
  });

  it('answers 400 to a request that is not for a proxy, and closes garbage', async () => {
    const { res } = await proxied('/not-absolute', { 'proxy-authorization': AUTH });
    expect(res.statusCode).toBe(400);
    const socket = await rawConnect(modem.http);
    socket.write('\x16\x03\x01\x02\x00garbage\r\n\r\n');
    expect((await readAll(socket)).toString()).toMatch(/^HTTP\/1\.1 400/);
  });
});

describe('HTTP proxy: targets', () => {
  it('refuses private, link-local and denied targets with 403, before connecting', async () => {
    const strict = await startModem({ policy: createTargetPolicy({ deniedCidrs: ['198.51.100.0/24'] }), ports: [P1] });
    try {
      for (const target of ['127.0.0.1', 'localhost', '10.0.0.1', '169.254.169.254', '198.51.100.9', '[::1]', '[::ffff:127.0.0.1]']) {
        const { res } = await new Promise<{ res: IncomingMessage }>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port: strict.http, path: `http://${target}:${targets.httpPort}/`,
            headers: { 'proxy-authorization': AUTH }, agent: false }, (r) => { r.resume(); resolve({ res: r }); });
          req.on('error', reject);
          req.end();
        });
        expect(res.statusCode, target).toBe(403);
        const tunnel = await httpConnect(strict.http, `${target}:${targets.tcpPort}`, AUTH);
        expect(tunnel.status, target).toBe(403);
        tunnel.socket.destroy();
      }
    } finally {
      await strict.close();
    }
  });

  it('answers 502 to an unresolvable name and to a refused connection', async () => {
    expect((await proxied('http://no-such-host.invalid/', { 'proxy-authorization': AUTH })).res.statusCode).toBe(502);
    expect((await httpConnect(modem.http, 'no-such-host.invalid:80', AUTH)).status).toBe(502);
    // A port nobody listens on: a listener closed just now.
    const gone = await startTargets();
    const port = gone.tcpPort;
    await gone.close();
    expect((await proxied(`http://127.0.0.1:${port}/`, { 'proxy-authorization': AUTH })).res.statusCode).toBe(502);
    expect((await httpConnect(modem.http, `127.0.0.1:${port}`, AUTH)).status).toBe(502);
  });
});

describe('HTTP proxy: slow targets', () => {
  it('answers 504 when the target does not start answering within connectTimeoutMs', async () => {
    const silent = createServer((socket) => socket.on('error', () => {})); // accepts, never answers
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const quick = await startModem({ ports: [P1], limits: { connectTimeoutMs: 100 } });
    try {
      const port = (silent.address() as AddressInfo).port;
      const socket = await rawConnect(quick.http);
      socket.write(`GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${AUTH}\r\n\r\n`);
      expect((await readUntil(socket, wholeResponse)).toString()).toMatch(/^HTTP\/1\.1 504[^]*did not answer in time/);
      socket.destroy();
    } finally {
      await quick.close();
      silent.close();
    }
  });
});

describe('HTTP proxy: idle tunnels', () => {
  it('closes a CONNECT tunnel that stays silent past idleTimeoutMs, and the target connection with it', async () => {
    const accepted: Socket[] = [];
    const silent = createServer((socket) => {
      socket.on('error', () => {});
      accepted.push(socket); // accepts, never writes
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const quick = await startModem({ ports: [P1], limits: { idleTimeoutMs: 150 } });
    try {
      const port = (silent.address() as AddressInfo).port;
      const { socket, status } = await httpConnect(quick.http, `127.0.0.1:${port}`, AUTH);
      expect(status).toBe(200);
      const clientClosed = once(socket, 'close');
      await vi.waitFor(() => expect(accepted).toHaveLength(1));
      await Promise.all([clientClosed, once(accepted[0]!, 'close')]);
      await vi.waitFor(() => expect(quick.connectionCount).toBe(0));
    } finally {
      await quick.close();
      silent.close();
    }
  });
});

describe('HTTP proxy: a tunnel busy one way only', () => {
  it('keeps a CONNECT tunnel whose target sends steadily open past idleTimeoutMs, and closes it once the target is silent', async () => {
    // The tunnel's idle timer is the client socket's: bytes written to the client must keep it alive as bytes read do.
    let ticker: NodeJS.Timeout | null = null;
    const talker = createServer((socket) => {
      socket.on('error', () => {});
      let ticks = 0;
      ticker = setInterval(() => {
        socket.write('.');
        if (++ticks === 10 && ticker !== null) clearInterval(ticker);
      }, 40);
    });
    talker.listen(0, '127.0.0.1');
    await once(talker, 'listening');
    const quick = await startModem({ ports: [P1], limits: { idleTimeoutMs: 150 } });
    try {
      const port = (talker.address() as AddressInfo).port;
      const { socket, status } = await httpConnect(quick.http, `127.0.0.1:${port}`, AUTH);
      expect(status).toBe(200);
      let received = 0;
      const closed = once(socket, 'close');
      socket.on('data', (c: Buffer) => { received += c.length; });
      socket.resume();
      await closed;
      // Ten dots 40 ms apart (400 ms, over twice idleTimeoutMs with the client silent): all of them came through.
      expect(received).toBe(10);
    } finally {
      if (ticker !== null) clearInterval(ticker);
      await quick.close();
      talker.close();
    }
  });
});

describe('HTTP proxy: traffic', () => {
  it('counts exactly what the client moved on its socket: a plain request and a CONNECT tunnel', async () => {
    const meterModem = await startModem({ ports: [P1] });
    try {
      const plainSocket = await rawConnect(meterModem.http);
      plainSocket.write(`GET http://127.0.0.1:${targets.httpPort}/count HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Proxy-Authorization: ${AUTH}\r\nConnection: close\r\n\r\n`);
      const response = await readAll(plainSocket);
      expect(response.toString()).toMatch(/^HTTP\/1\.1 200/);

      const { socket } = await httpConnect(meterModem.http, `127.0.0.1:${targets.tcpPort}`, AUTH);
      await seenThrough(socket);
      const payload = Buffer.alloc(256 * 1024, 7);
      socket.write(payload);
      await readUntil(socket, (d) => d.length >= payload.length);
      socket.end();
      await closed(socket);

      const moved = { out: plainSocket.bytesWritten + socket.bytesWritten, in: plainSocket.bytesRead + socket.bytesRead };
      const samples = meterModem.meter.collect();
      expect(samples).toHaveLength(1);
      expect(samples[0]!.portId).toBe('p1');
      expect(samples[0]!.bytesOut).toBe(BigInt(moved.out));
      expect(samples[0]!.bytesIn).toBe(BigInt(moved.in));
      expect(moved.out).toBeGreaterThan(payload.length);
    } finally {
      await meterModem.close();
    }
  });
});

describe('HTTP proxy: streaming a forwarded message', () => {
  // A raw target: each connection gets a 4 MiB response announced with its length, then `cut` decides whether it
  // sends all of it or resets after the first chunk.
  async function bigTarget(cut: boolean): Promise<{ port: number; closedSockets: () => number; close: () => void }> {
    let closedSockets = 0;
    const body = Buffer.alloc(4 << 20, 0x61);
    const server = createServer((socket) => {
      socket.on('error', () => {});
      socket.on('close', () => closedSockets++);
      socket.once('data', () => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`);
        if (cut) socket.write(body.subarray(0, 1000), () => socket.resetAndDestroy());
        else socket.write(body);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { port: (server.address() as AddressInfo).port, closedSockets: () => closedSockets, close: () => server.close() };
  }
  const ask = (port: number) => `GET http://127.0.0.1:${port}/big HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${AUTH}\r\n\r\n`;

  it('relays a large body to a slow reader in full (backpressure), and keeps the connection', async () => {
    const target = await bigTarget(false);
    try {
      const socket = await rawConnect(modem.http);
      socket.write(ask(target.port));
      socket.pause();
      // The client does not read until its own buffer is full: from then on the proxy meets a peer that takes nothing.
      await vi.waitFor(() => expect(socket.readableLength).toBeGreaterThanOrEqual(socket.readableHighWaterMark), { timeout: 15_000 });
      const data = await readUntil(socket, wholeResponse);
      expect(data.length - data.indexOf('\r\n\r\n') - 4).toBe(4 << 20);
      expect(socket.destroyed).toBe(false);
    } finally {
      target.close();
    }
  });

  it('a target that resets mid-body closes the client connection; a client that leaves closes the target', async () => {
    const cut = await bigTarget(true);
    const slow = await bigTarget(false);
    try {
      const socket = await rawConnect(modem.http);
      socket.write(ask(cut.port));
      const data = await readAll(socket); // ends: the proxy does not leave the client waiting for the missing bytes
      expect(data.toString('latin1')).toMatch(/^HTTP\/1\.1 200/);
      expect(data.length).toBeLessThan(4 << 20);

      const leaving = await rawConnect(modem.http);
      leaving.write(ask(slow.port));
      await readUntil(leaving, (d) => d.length > 1000);
      leaving.destroy();
      await vi.waitFor(() => expect(slow.closedSockets()).toBe(1), { timeout: 15_000 });
    } finally {
      cut.close();
      slow.close();
    }
  });
});
