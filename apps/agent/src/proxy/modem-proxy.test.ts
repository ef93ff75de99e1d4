import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ModemProxy } from './modem-proxy.js';
import { createTargetPolicy } from './target-policy.js';
import {
  access, basic, closed, EGRESS, expectNoLeaks, httpConnect, quietResources, rawConnect, readAll, seenThrough, silentLog, socksConnect,
  readUntil, responseJson, startModem, startRecordingOrigin, startTargets, wholeResponse,
  destroyTestClients,
} from './test-support.js';
import type { Targets, TestModem } from './test-support.js';
import { TrafficMeter } from './traffic-meter.js';
import type { PortAccess } from './types.js';

let targets: Targets;
beforeAll(async () => {
  targets = await startTargets();
});
afterAll(async () => {
  await targets.close();
});
afterEach(destroyTestClients);

const A = access('a', { whitelist: ['127.0.0.77'] });
const B = access('b');
const authA = basic(A.login, A.password);
const credsA = { userId: A.login, password: A.password };

/** One open tunnel of each protocol for port A, and one HTTP tunnel for port B. */
async function openTunnels(modem: TestModem): Promise<{ http: Socket; socks: Socket; other: Socket }> {
  const http = (await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA)).socket;
  const socks = await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, credsA);
  const other = (await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(B.login, B.password))).socket;
  for (const s of [http, socks, other]) expect(await seenThrough(s)).toBe(EGRESS);
  return { http, socks, other };
}

async function socksReply(modem: TestModem, login: string, password: string): Promise<number> {
  const socket = await rawConnect(modem.socks);
  socket.write(Buffer.concat([Buffer.from([5, 1, 2, 1, login.length]), Buffer.from(login), Buffer.from([password.length]),
    Buffer.from(password), Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, targets.tcpPort >> 8, targets.tcpPort & 0xff])]));
  const data = await readAll(socket);
  return data[5]!;
}

describe('ModemProxy: access rules change under open connections', () => {
  it('suspending a port closes its open tunnels at once (both protocols), keeps other ports, refuses new ones', async () => {
    const modem = await startModem({ ports: [A, B] });
    try {
      const { http, socks, other } = await openTunnels(modem);
      expect(modem.connectionCount).toBe(3);
      modem.setPorts([{ ...A, state: 'suspended' }, B]);
      await Promise.all([closed(http), closed(socks)]);
      expect(other.closed).toBe(false);
      expect((await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA)).status).toBe(403);
      expect(await socksReply(modem, A.login, A.password)).toBe(0x02);
      other.destroy();
    } finally {
      await modem.close();
    }
  });

  it('a changed password, a removed port and a removed whitelist entry close the connections they allowed', async () => {
    const modem = await startModem({ ports: [A, B] });
    try {
      const { http, socks, other } = await openTunnels(modem);
      const listed = (await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, undefined, '127.0.0.77')).socket;
      expect(await seenThrough(listed)).toBe(EGRESS);
      modem.setPorts([{ ...A, password: 'changed' }, B]);
      await Promise.all([closed(http), closed(socks)]);
      expect(listed.closed).toBe(false); // identified by its address, which is still listed
      modem.setPorts([{ ...A, password: 'changed', whitelist: [] }, B]);
      await closed(listed);
      expect(other.closed).toBe(false);
      modem.setPorts([A]);
      await closed(other);
      expect((await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(B.login, B.password))).status).toBe(407);
    } finally {
      await modem.close();
    }
  });

  it('cuts an open tunnel when its port expires by the agent clock (no server needed), and refuses new ones', async () => {
    let clock = Date.now();
    const expiring: PortAccess = { ...A, expiresAt: new Date(clock + 60_000).toISOString() };
    const modem = await startModem({ ports: [expiring, B], now: () => clock });
    try {
      const { http, socks, other } = await openTunnels(modem);
      clock += 61_000; // the server is unreachable: nobody sends 'expired'; the sweep sees the clock
      await Promise.all([closed(http), closed(socks)]);
      expect(other.closed).toBe(false);
      expect((await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA)).status).toBe(403);
      expect(await socksReply(modem, A.login, A.password)).toBe(0x02);
      other.destroy();
    } finally {
      await modem.close();
    }
  });
});

describe('ModemProxy: whitelists on a shared modem', () => {
  it('a client address on the whitelists of two ports is refused rather than given to either; one on a single whitelist gets that port', async () => {
    const first = access('first', { whitelist: ['127.0.0.0/24'] });
    const second = access('second', { whitelist: ['127.0.0.80'] });
    const modem = await startModem({ ports: [first, second] });
    const target = `127.0.0.1:${targets.tcpPort}`;
    try {
      expect((await httpConnect(modem.http, target, undefined, '127.0.0.80')).status).toBe(407);
      const socks = await rawConnect(modem.socks, '127.0.0.80');
      socks.write(Buffer.from([5, 1, 0]));
      expect([...await readAll(socks)]).toEqual([5, 0xff]);
      // Only the first port's whitelist holds 127.0.0.81: its connection is the first port's, counted there.
      const own = await httpConnect(modem.http, target, undefined, '127.0.0.81');
      expect(own.status).toBe(200);
      const open = new Map<string, number>();
      modem.countOpen(open);
      expect(open.get('first\nhttp')).toBe(1);
      expect(open.get('second\nhttp')).toBeUndefined();
      own.socket.destroy();
      // Its credentials still take the second port from the shared address.
      const withLogin = await httpConnect(modem.http, target, basic(second.login, second.password), '127.0.0.80');
      expect(withLogin.status).toBe(200);
      withLogin.socket.destroy();
      expect(silentLog.lines).toContain('Whitelists of ports of this modem overlap: their shared addresses are refused without credentials');
    } finally {
      await modem.close();
    }
  });
});

describe('ModemProxy: rotation', () => {
  it('new connections wait during a rotation; setEgress closes old tunnels; the next ones leave from the new address', async () => {
    const modem = await startModem({ ports: [A, B] });
    try {
      const old = await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, credsA);
      expect(await seenThrough(old)).toBe(EGRESS);
      modem.beginRotation();
      const waitingHttp = httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA);
      const waitingSocks = socksConnect(modem.socks, 'localhost', targets.tcpPort, credsA);
      await vi.waitFor(() => expect(modem.waitingForRotation).toBe(2), { timeout: 15_000 });
      modem.setEgress('127.0.9.10');
      await closed(old);
      modem.endRotation();
      const http = await waitingHttp;
      expect(http.status).toBe(200);
      expect(await seenThrough(http.socket)).toBe('127.0.9.10');
      expect(await seenThrough(await waitingSocks)).toBe('127.0.9.10');
      const dispatcherless = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA);
      expect(await seenThrough(dispatcherless.socket)).toBe('127.0.9.10');
      expect(modem.egress).toBe('127.0.9.10');
    } finally {
      await modem.close();
    }
  });

  it('a rotation that keeps the LAN address (a HiLink) still closes the tunnels opened through the old public IP', async () => {
    const modem = await startModem({ ports: [A] });
    try {
      const old = await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, credsA);
      expect(await seenThrough(old)).toBe(EGRESS);
      modem.setEgress(EGRESS, { newPublicIp: true });
      await closed(old);
      expect(await seenThrough(await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, credsA))).toBe(EGRESS);
    } finally {
      await modem.close();
    }
  });

  it('refuses with 503 / SOCKS 0x01 when the rotation outlasts rotationWaitMs', async () => {
    const modem = await startModem({ ports: [A], limits: { rotationWaitMs: 50 } });
    try {
      modem.beginRotation();
      const { status, socket } = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA);
      expect(status).toBe(503);
      expect((await readAll(socket)).toString()).toMatch(/changing its IP address/);
      expect(await socksReply(modem, A.login, A.password)).toBe(0x01);
      modem.endRotation();
      expect((await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA)).status).toBe(200);
    } finally {
      await modem.close();
    }
  });
});

describe('ModemProxy: limits and listening', () => {
  it('refuses connections over the per-port limit (HTTP 429, SOCKS 0x02), counting each port apart', async () => {
    const modem = await startModem({ ports: [A, B], limits: { maxConnectionsPerPort: 2 } });
    try {
      const first = (await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA)).socket;
      const second = await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, credsA);
      expect((await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA)).status).toBe(429);
      expect(await socksReply(modem, A.login, A.password)).toBe(0x02);
      expect((await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(B.login, B.password))).status).toBe(200);
      first.destroy();
      await vi.waitFor(() => expect(modem.connectionCount).toBeLessThan(5), { timeout: 15_000 });
      await vi.waitFor(async () => expect((await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA)).status).toBe(200), { timeout: 15_000 });
      second.destroy();
    } finally {
      await modem.close();
    }
  });

  it('rejects start() naming a port that is taken, and leaves nothing open', async () => {
    const squatter = createServer().listen(0, '127.0.0.1');
    await once(squatter, 'listening');
    const taken = (squatter.address() as AddressInfo).port;
    const before = await quietResources();
    const modem = new ModemProxy({
      imei: '350000000000009', listenHost: '127.0.0.1', httpPort: 0, socksPort: taken, egress: EGRESS,
      policy: createTargetPolicy({ allowLoopback: true }), meter: new TrafficMeter(), log: silentLog,
    });
    await expect(modem.start()).rejects.toThrow(new RegExp(`SOCKS5 port ${taken} .*already in use`));
    // The HTTP listener it had opened is closed again (handles go away on the loop's next turn).
    await expectNoLeaks(before);
    await modem.close();
    squatter.close();
  });
});

describe('ModemProxy: protocol fuzz', () => {
  it('garbage, oversized and slow headers, wrong SOCKS versions and truncated handshakes: no crash, no leak', async () => {
    const before = await quietResources();
    const modem = await startModem({ ports: [A], limits: { handshakeTimeoutMs: 300 } });
    const clients: Promise<void>[] = [];
    const drip = new Set<NodeJS.Timeout>();
    /** Connects, sends `parts` (a null part: wait for nothing, end our side), and resolves once the proxy closed us. */
    const attack = async (port: number, parts: (Buffer | string)[], end = false, slow = false) => {
      const socket = await rawConnect(port);
      const done = readAll(socket);
      if (slow) {
        // One byte every 50 ms: never idle long enough for an idle timeout, only a deadline catches it.
        const bytes = Buffer.from(parts.join(''));
        let i = 0;
        const timer = setInterval(() => {
          if (socket.destroyed || i >= bytes.length) clearInterval(timer);
          else socket.write(bytes.subarray(i, ++i));
        }, 50);
        drip.add(timer);
      } else {
        for (const part of parts) socket.write(part);
        if (end) socket.end();
      }
      await done;
    };
    const random = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(Math.random() * 256)));
    for (let i = 0; i < 40; i++) {
      clients.push(attack(modem.http, [random(1 + (i * 97) % 3000)]));
      clients.push(attack(modem.socks, [random(1 + (i * 89) % 3000)]));
    }
    for (let i = 0; i < 10; i++) {
      // Oversized headers (431 and close), slow headers, a request that never finishes.
      clients.push(attack(modem.http, [`GET http://127.0.0.1/ HTTP/1.1\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`]));
      clients.push(attack(modem.http, ['GET http://127.0.0.1/ HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n'], false, true));
      clients.push(attack(modem.http, ['CONNECT 127.0.0.1:1 HTTP/1.1\r\n']));
      clients.push(attack(modem.http, ['CONNECT nonsense HTTP/1.1\r\n\r\n']));
      clients.push(attack(modem.http, ['GET http://127.0.0.1/ HTTP/1.1\r\n'], true));
      // SOCKS: wrong versions, truncated and slow handshakes, oversized names.
      clients.push(attack(modem.socks, [Buffer.from([4, 1, 0, 80, 127, 0, 0, 1, 0])]));
      clients.push(attack(modem.socks, [Buffer.from([0, 1, 2])]));
      clients.push(attack(modem.socks, [Buffer.from([5, 1, 2]), Buffer.from([5, 3, 'a'.charCodeAt(0)])]));
      clients.push(attack(modem.socks, [Buffer.from([5, 200, 2])]));
      clients.push(attack(modem.socks, [Buffer.from([5, 2, 0, 2]), Buffer.from([1, 255])], true));
      clients.push(attack(modem.socks, [Buffer.from([5, 1, 2, 1, 5]), 'login', Buffer.from([2]), 'pw'], false, true));
      clients.push(attack(modem.socks, [Buffer.from([5, 1, 2]), Buffer.from([1, 255]), random(600)]));
    }
    await Promise.all(clients);
    for (const timer of drip) clearInterval(timer);
    await vi.waitFor(() => expect(modem.connectionCount).toBe(0), { timeout: 15_000 });
    // Still serving after all that.
    const ok = await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, credsA);
    expect(await seenThrough(ok)).toBe(EGRESS);
    ok.destroy();
    await modem.close();
    expect(modem.connectionCount).toBe(0);
    await expectNoLeaks(before);
  });

  it('ambiguous body framing (smuggling attempts) is answered 400 and closed, and never reaches the target', async () => {
    const origin = await startRecordingOrigin('127.0.0.56');
    const modem = await startModem({ ports: [A] });
    try {
      const start = (version = '1.1') => `POST http://${origin.host}:${origin.port}/x HTTP/${version}\r\nHost: x\r\n` +
        `Proxy-Authorization: ${authA}\r\n`;
      const body = '5\r\nhello\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n';
      const cases = [
        `${start()}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n${body}`,
        `${start()}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n${body}`,
        `${start()}Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello`,
        `${start()}Content-Length: 5\r\nContent-Length: 40\r\n\r\nhello`,
        `${start()}Content-Length: 5, 5\r\n\r\nhello`,
        `${start()}Content-Length: +5\r\n\r\nhello`,
        `${start()}Content-Length: 0x5\r\n\r\nhello`,
        `${start()}Transfer-Encoding: gzip, chunked\r\n\r\n${body}`,
        `${start()}Transfer-Encoding: gzip\r\n\r\nhello`,
        `${start()}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n${body}`,
        `${start()}Transfer-Encoding : chunked\r\n\r\n${body}`,
        `${start()}Transfer-Encoding: chunked, identity\r\n\r\n${body}`,
        `${start()}Transfer-Encoding:\x0bchunked\r\n\r\n${body}`,
        `${start('1.0')}Transfer-Encoding: chunked\r\n\r\n${body}`,
        `${start().replaceAll('\r\n', '\n')}Content-Length: 5\n\nhello`,
      ];
      for (const raw of cases) {
        const socket = await rawConnect(modem.http);
        socket.write(raw);
        expect((await readAll(socket)).toString('latin1'), raw).toMatch(/^HTTP\/1\.1 400 /);
      }
      // The marker: a well-framed request after them all is the first and only one the target saw.
      const socket = await rawConnect(modem.http);
      socket.write(`${start()}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`);
      expect(responseJson<{ body: string }>(await readUntil(socket, wholeResponse)).body).toBe('hello');
      expect(origin.requests.map((r) => r.path)).toEqual(['/x']);
      socket.destroy();
    } finally {
      await modem.close();
      await origin.close();
    }
  });

  it('close() ends every connection, open tunnels and half-done handshakes alike, and leaves no handle', async () => {
    const before = await quietResources();
    const modem = await startModem({ ports: [A, B] });
    const { http, socks, other } = await openTunnels(modem);
    const idle = await rawConnect(modem.socks);
    const half = await rawConnect(modem.http);
    half.write('GET http://127.0.0.1/ HTTP/1.1\r\n');
    modem.beginRotation();
    const waiting = httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, authA).catch(() => null);
    await vi.waitFor(() => expect(modem.waitingForRotation).toBe(1), { timeout: 15_000 });
    await modem.close();
    await Promise.all([http, socks, other, idle, half].map(closed));
    await waiting;
    expect(modem.connectionCount).toBe(0);
    await expectNoLeaks(before);
  });
});
