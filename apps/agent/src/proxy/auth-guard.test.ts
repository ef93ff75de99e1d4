import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_BLOCK_MS, AUTH_FAILURE_WINDOW_MS, AuthGuard, clientKey, MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_CONNECTION,
  MAX_FAILURES_PER_LOGIN, MAX_TRACKED,
} from './auth-guard.js';
import { ProxyCounters } from './proxy-counters.js';
import {
  access, basic, closed, destroyTestClients, rawConnect, readAll, readUntil, startModem, startTargets, wholeResponse,
} from './test-support.js';
import type { Targets, TestModem } from './test-support.js';
import type { Logger } from './types.js';

// Issue 26, item 6: proxy password guessing is counted per client address and per login and blocked, through the real
// listeners. Counts, not time: the proxy's clock is the test's.

const P = access('guarded');
const Q = access('other');
const GOOD = basic(P.login, P.password);

let targets: Targets;
let modem: TestModem;
let clock: number;
const lines: { fields: object; message: string }[] = [];
const log: Logger = {
  info: (fields, message) => lines.push({ fields, message }),
  warn: (fields, message) => lines.push({ fields, message }),
  error: (fields, message) => lines.push({ fields, message }),
};
const blockLines = () => lines.filter((l) => /blocked/.test(l.message));

beforeAll(async () => {
  targets = await startTargets();
});
afterAll(async () => {
  await targets.close();
});
afterEach(async () => {
  await destroyTestClients();
  await modem.close();
});

async function start(): Promise<void> {
  clock = Date.now();
  lines.length = 0;
  modem = await startModem({ ports: [P, Q], log, now: () => clock });
}

/** One plain request on an open connection: its status, and whether the proxy closes the connection after it. */
async function ask(socket: Socket, auth: string): Promise<{ status: number; close: boolean }> {
  socket.write(`GET http://127.0.0.1:${targets.httpPort}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${auth}\r\n\r\n`);
  const head = (await readUntil(socket, wholeResponse)).toString('latin1');
  return { status: Number(head.split(' ')[1]), close: /\r\nConnection: close\r\n/i.test(head) };
}

/** `n` wrong passwords over HTTP from `from`, MAX_FAILURES_PER_CONNECTION to a connection (as the proxy allows). */
async function guessHttp(from: string, n: number, login = P.login): Promise<void> {
  for (let done = 0; done < n;) {
    const socket = await rawConnect(modem.http, from);
    for (let i = 0; i < MAX_FAILURES_PER_CONNECTION && done < n; i++, done++) {
      expect((await ask(socket, basic(login, `guess-${done}`))).status).toBe(407);
    }
    socket.destroy();
  }
}

/** A SOCKS5 password exchange from `from`: the RFC 1929 status. */
async function socksAuth(from: string, login: string, password: string): Promise<number> {
  const socket = await rawConnect(modem.socks, from);
  socket.write(Buffer.concat([Buffer.from([5, 1, 2, 1, login.length]), Buffer.from(login), Buffer.from([password.length]), Buffer.from(password)]));
  const data = await readUntil(socket, (d) => d.length >= 4);
  socket.destroy();
  return data[3]!;
}

describe('proxy password guessing', () => {
  it('HTTP: a keep-alive connection is closed after a few wrong passwords; an address is blocked after the limit, logged once', async () => {
    await start();
    const socket = await rawConnect(modem.http, '127.0.0.91');
    for (let i = 1; i <= MAX_FAILURES_PER_CONNECTION; i++) {
      expect(await ask(socket, basic(P.login, `wrong-${i}`))).toEqual({ status: 407, close: i === MAX_FAILURES_PER_CONNECTION });
    }
    await closed(socket);

    await guessHttp('127.0.0.91', MAX_FAILURES_PER_ADDRESS - MAX_FAILURES_PER_CONNECTION);
    expect(modem.counters.authBlocks.address).toBe(1);
    // Blocked: even the right password is not checked (a block must not confirm a guess), and the connection closes.
    const blocked = await rawConnect(modem.http, '127.0.0.91');
    expect(await ask(blocked, GOOD)).toEqual({ status: 429, close: true });
    await closed(blocked);
    const tunnel = await rawConnect(modem.http, '127.0.0.91');
    tunnel.write(`CONNECT 127.0.0.1:${targets.tcpPort} HTTP/1.1\r\nProxy-Authorization: ${GOOD}\r\n\r\n`);
    expect((await readAll(tunnel)).toString('latin1')).toMatch(/^HTTP\/1\.1 429 [^]*Too many wrong proxy passwords/);
    expect(modem.counters.refused.auth_blocked).toBe(2);
    expect(modem.counters.refused.auth).toBe(MAX_FAILURES_PER_ADDRESS);
    // Other addresses are not affected; one log line for the block, none per failure.
    expect((await ask(await rawConnect(modem.http, '127.0.0.92'), GOOD)).status).toBe(200);
    expect(blockLines()).toEqual([{ fields: expect.objectContaining({ address: '127.0.0.91' }) as object,
      message: 'Proxy logins from this address blocked after repeated wrong passwords' }]);

    clock += AUTH_BLOCK_MS;
    expect((await ask(await rawConnect(modem.http, '127.0.0.91'), GOOD)).status).toBe(200);
  });

  it('SOCKS5: an address is blocked after the limit, right password or not', async () => {
    await start();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) expect(await socksAuth('127.0.0.93', P.login, `guess-${i}`)).toBe(1);
    expect(await socksAuth('127.0.0.93', P.login, P.password)).toBe(1);
    expect(await socksAuth('127.0.0.94', P.login, P.password)).toBe(0);
    expect(modem.counters.authBlocks.address).toBe(1);
    expect(modem.counters.refused.auth_blocked).toBe(1);
    expect(blockLines()).toHaveLength(1);
  });

  it('a login guessed from many addresses is closed to the addresses that failed, not to its customer', async () => {
    await start();
    // Addresses each under their own limit, together at the login's.
    const per = MAX_FAILURES_PER_ADDRESS - 1;
    const guessers: string[] = [];
    for (let failures = 0, i = 0; failures < MAX_FAILURES_PER_LOGIN; i++) {
      const from = `127.0.1.${i + 1}`;
      guessers.push(from);
      const n = Math.min(per, MAX_FAILURES_PER_LOGIN - failures);
      for (let k = 0; k < n; k++) expect(await socksAuth(from, P.login, `guess-${k}`)).toBe(1);
      failures += n;
    }
    expect(modem.counters.authBlocks).toEqual({ address: 0, login: 1 });
    expect(blockLines().map((l) => l.message)).toEqual(['Proxy login blocked for addresses that failed it, after repeated wrong passwords']);
    for (const from of guessers) expect(await socksAuth(from, P.login, P.password)).toBe(1);
    expect((await ask(await rawConnect(modem.http, guessers[0]), GOOD)).status).toBe(429);
    // The customer's own address never failed: it gets in. A new address gets one try, then is closed out too.
    expect(await socksAuth('127.0.2.1', P.login, P.password)).toBe(0);
    expect(await socksAuth('127.0.2.2', P.login, 'one-guess')).toBe(1);
    expect(await socksAuth('127.0.2.2', P.login, P.password)).toBe(1);
    // Other logins from those addresses are still checked; the login opens again when its block ends.
    expect(await socksAuth(guessers[0]!, Q.login, Q.password)).toBe(0);
    clock += AUTH_BLOCK_MS;
    expect(await socksAuth(guessers[0]!, P.login, P.password)).toBe(0);
  });
});

describe('AuthGuard memory', () => {
  it('follows at most MAX_TRACKED addresses and logins, and forgets them once their window is over', () => {
    let now = 0;
    const guard = new AuthGuard(new ProxyCounters(), log, () => now);
    for (let i = 0; i < MAX_TRACKED + 500; i++) guard.failed(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `login-${i}`);
    expect(guard.tracked).toEqual({ addresses: MAX_TRACKED, logins: MAX_TRACKED });
    now += AUTH_FAILURE_WINDOW_MS;
    expect(guard.allows({ remoteAddress: '10.0.0.1' }, 'login-1')).toBe(true);
    expect(guard.tracked).toEqual({ addresses: 0, logins: 0 });
  });
});

describe('clientKey', () => {
  it('counts IPv4 (and IPv4-mapped) addresses as themselves, IPv6 by their /64', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey(undefined)).toBeUndefined();
  });
});
