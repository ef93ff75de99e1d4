import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTargetPolicy } from './target-policy.js';
import {
  access, closed, EGRESS, ipv6Available, rawConnect, readAll, readUntil, seenThrough, socksConnect, startModem,
  startTargets,
  destroyTestClients,
} from './test-support.js';
import type { Targets, TestModem } from './test-support.js';

const P1 = access('p1', { whitelist: ['127.0.0.77'] });
const CREDS = { userId: P1.login, password: P1.password };

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

function userPass(login: string, password: string): Buffer {
  return Buffer.concat([Buffer.from([1, login.length]), Buffer.from(login), Buffer.from([password.length]), Buffer.from(password)]);
}

function connectRequest(host: string, port: number, cmd = 1): Buffer {
  const portBytes = [port >> 8, port & 0xff];
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return Buffer.from([5, cmd, 0, 1, ...host.split('.').map(Number), ...portBytes]);
  return Buffer.from([5, cmd, 0, 3, host.length, ...Buffer.from(host), ...portBytes]);
}

/** A raw SOCKS5 exchange: the method the server chose, the auth status (if any) and the CONNECT reply code. */
async function rawSocks(port: number, opts: { methods?: number[]; auth?: [string, string]; request?: Buffer; localAddress?: string }):
  Promise<{ socket: Socket; method: number; authStatus?: number; reply?: number }> {
  const socket = await rawConnect(port, opts.localAddress);
  const methods = opts.methods ?? [2];
  socket.write(Buffer.from([5, methods.length, ...methods]));
  let data = await readUntil(socket, (d) => d.length >= 2);
  const method = data[1]!;
  if (method === 0xff) return { socket, method };
  let authStatus: number | undefined;
  if (method === 2) {
    socket.write(userPass(...(opts.auth ?? [P1.login, P1.password])));
    data = await readUntil(socket, (d) => d.length >= 2);
    authStatus = data[1];
    if (authStatus !== 0) return { socket, method, authStatus };
  }
  if (!opts.request) return { socket, method, authStatus };
  socket.write(opts.request);
  data = await readUntil(socket, (d) => d.length >= 10);
  return { socket, method, authStatus, reply: data[1] };
}

describe('SOCKS5: egress', () => {
  it('CONNECT to IPv4 and domain targets leaves from the egress address', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const socket = await socksConnect(modem.socks, host, targets.tcpPort, CREDS);
      expect(await seenThrough(socket)).toBe(EGRESS);
      socket.write('ping\n');
      expect((await readUntil(socket, (d) => d.includes('ping\n'))).toString()).toBe('ping\n');
      socket.destroy();
    }
  });

  it('CONNECT to an IPv6 target (::1) from an IPv6 egress, when the machine has IPv6', async (ctx) => {
    if (!(await ipv6Available())) ctx.skip();
    const v6 = await startModem({ egress: '::1', ports: [P1] });
    try {
      const socket = await socksConnect(v6.socks, '::1', targets.tcpPort, CREDS);
      expect(await seenThrough(socket)).toBe('::1');
      socket.destroy();
      // An IPv4 target from an IPv6 egress is an address type this modem cannot serve.
      const { reply, socket: raw } = await rawSocks(v6.socks, { request: connectRequest('127.0.0.1', targets.tcpPort) });
      expect(reply).toBe(0x08);
      raw.destroy();
    } finally {
      await v6.close();
    }
  });

  it('passes data the client sends right after its request (before the reply) into the tunnel', async () => {
    const socket = await rawConnect(modem.socks);
    socket.write(Buffer.concat([Buffer.from([5, 1, 2]), userPass(P1.login, P1.password),
      connectRequest('127.0.0.1', targets.tcpPort), Buffer.from('early\n')]));
    const data = await readUntil(socket, (d) => d.includes('early\n'));
    expect([...data.subarray(0, 4)]).toEqual([5, 2, 1, 0]);
    expect(data.subarray(4, 6)[1]).toBe(0); // CONNECT reply code: succeeded
    expect(data.subarray(14).toString()).toBe(`${EGRESS}\nearly\n`);
    socket.destroy();
  });
});

describe('SOCKS5: who may use it', () => {
  it('refuses a wrong password and an unknown login (RFC 1929 status 1, then closes)', async () => {
    for (const auth of [[P1.login, 'wrong'], ['nobody', P1.password]] as [string, string][]) {
      const { socket, authStatus } = await rawSocks(modem.socks, { auth });
      expect(authStatus).toBe(1);
      await closed(socket);
    }
    await expect(socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, { userId: P1.login, password: 'nope' })).rejects.toThrow();
  });

  it('refuses wrong credentials from a whitelisted client address: the address never makes them good', async () => {
    for (const auth of [[P1.login, 'wrong'], ['nobody', 'x']] as [string, string][]) {
      for (const methods of [[2], [0, 2]]) {
        const { socket, method, authStatus } = await rawSocks(modem.socks, { methods, auth, localAddress: '127.0.0.77' });
        expect(method).toBe(2);
        expect(authStatus).toBe(1);
        await closed(socket);
      }
    }
  });

  it('offers no-authentication only to a whitelisted client address; otherwise 0xFF', async () => {
    const denied = await rawSocks(modem.socks, { methods: [0] });
    expect(denied.method).toBe(0xff);
    await closed(denied.socket);
    const other = await rawSocks(modem.socks, { methods: [0, 1, 3], localAddress: '127.0.0.78' });
    expect(other.method).toBe(0xff);
    other.socket.destroy();
    const socket = await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, undefined, '127.0.0.77');
    expect(await seenThrough(socket)).toBe(EGRESS);
    socket.destroy();
  });

  it('answers 0x02 to valid credentials of a port that is not active', async () => {
    const { reply, authStatus, socket } = await rawSocks(modem.socks, { auth: ['login-off', 'secret-off'], request: connectRequest('127.0.0.1', targets.tcpPort) });
    expect(authStatus).toBe(0);
    expect(reply).toBe(0x02);
    await closed(socket);
  });

  it('answers 0x07 to BIND and to an unknown command, 0x08 to an unknown address type', async () => {
    for (const cmd of [2, 9]) {
      const { reply, socket } = await rawSocks(modem.socks, { request: connectRequest('127.0.0.1', targets.tcpPort, cmd) });
      expect(reply).toBe(0x07);
      socket.destroy();
    }
    const { reply, socket } = await rawSocks(modem.socks, { request: Buffer.from([5, 1, 0, 9, 1, 2, 3, 4, 0, 80]) });
    expect(reply).toBe(0x08);
    socket.destroy();
  });
});

describe('SOCKS5: targets', () => {
  it('answers 0x02 to loopback (when not allowed), private, link-local and denied targets', async () => {
    const strict = await startModem({ policy: createTargetPolicy({ deniedCidrs: ['198.51.100.0/24'] }), ports: [P1] });
    try {
      for (const host of ['127.0.0.1', 'localhost', '10.0.0.1', '169.254.169.254', '198.51.100.9', '192.168.8.1']) {
        const { reply, socket } = await rawSocks(strict.socks, { request: connectRequest(host, targets.tcpPort) });
        expect(reply, host).toBe(0x02);
        socket.destroy();
      }
    } finally {
      await strict.close();
    }
  });

  it('answers 0x04 to an unresolvable name and 0x05 to a refused connection', async () => {
    const unresolvable = await rawSocks(modem.socks, { request: connectRequest('no-such-host.invalid', 80) });
    expect(unresolvable.reply).toBe(0x04);
    unresolvable.socket.destroy();
    const gone = await startTargets();
    const port = gone.tcpPort;
    await gone.close();
    const refused = await rawSocks(modem.socks, { request: connectRequest('127.0.0.1', port) });
    expect(refused.reply).toBe(0x05);
    refused.socket.destroy();
  });
});

describe('SOCKS5: traffic', () => {
  it('counts exactly what the client moved on its socket, handshake included', async () => {
    const meterModem = await startModem({ ports: [P1] });
    try {
      const socket = await socksConnect(meterModem.socks, 'localhost', targets.tcpPort, CREDS);
      await seenThrough(socket);
      const payload = Buffer.alloc(300_000, 1);
      socket.write(payload);
      socket.end();
      const rest = await readAll(socket);
      expect(rest.length).toBe(payload.length);
      const samples = meterModem.meter.collect();
      expect(samples).toHaveLength(1);
      expect(samples[0]).toMatchObject({ portId: 'p1', bytesOut: BigInt(socket.bytesWritten), bytesIn: BigInt(socket.bytesRead) });
      expect(socket.bytesWritten).toBeGreaterThan(payload.length);
    } finally {
      await meterModem.close();
    }
  });
});
