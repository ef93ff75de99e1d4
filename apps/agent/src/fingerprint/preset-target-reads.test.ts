import { Socket, type OnReadOpts, type SocketConstructorOpts } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  access, basic, destroyTestClients, httpConnect, rawConnect, readAll, seenThrough, socksConnect, startModem, startTargets,
  type Targets, type TestModem,
} from '../proxy/test-support.js';
import { TARGET_READS } from '../proxy/target-reads.js';
import type { FingerprintEgress } from './fingerprint-egress.js';

// How a preset port's target connections read (issue 30, item 7): a tunnel's (CONNECT, SOCKS5) reads into reused
// buffers as its native twin does (proxy/target-reads.ts: native's agent CPU per GB was about half a preset's without
// it), while the plain HTTP forwarder's pool gets sockets that emit 'data', which its readers take. The preset's
// socket is wrapped once, so the proxy says how it reads when it asks for the connection; this egress records what
// it was asked (FingerprintHost wraps the descriptor with it: fingerprint-host.ts adopt()).

let targets: Targets;
let modem: TestModem;
const windows = access('w', { fingerprint: 'windows' });
const asked: Array<OnReadOpts | undefined> = [];

/** A preset egress whose sockets are this host's own, recording the `onread` each socket was asked for. */
const egress: FingerprintEgress = {
  prepare: () => undefined,
  ready: () => true,
  whenReady: () => Promise.resolve(),
  socket(_preset, _egress, onread) {
    asked.push(onread);
    // Node's Socket constructor takes `onread` (net.connect hands it its options); @types/node lists it only for connect.
    return new Socket(onread ? { allowHalfOpen: true, onread } as SocketConstructorOpts : { allowHalfOpen: true });
  },
  datagramTtl: () => 128,
  problem: () => null,
};

beforeAll(async () => {
  targets = await startTargets();
  modem = await startModem({ ports: [windows], fingerprint: egress });
});
afterEach(async () => {
  asked.length = 0;
  await destroyTestClients();
});
afterAll(async () => {
  await modem.close();
  await targets.close();
});

describe('a preset port\'s target connections', () => {
  it('a CONNECT tunnel\'s target reads into reused buffers, and the tunnel carries', async () => {
    const { socket, status } = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(windows.login, windows.password));
    expect(status).toBe(200);
    expect(await seenThrough(socket)).toBe('127.0.0.1');
    expect(asked).toEqual([TARGET_READS]);
  });

  it('a SOCKS5 tunnel\'s target reads into reused buffers, and the tunnel carries', async () => {
    const socket = await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, { userId: windows.login, password: windows.password });
    expect(await seenThrough(socket)).toBe('127.0.0.1');
    expect(asked).toEqual([TARGET_READS]);
  });

  it('the plain HTTP forwarder\'s pool gets a socket that emits \'data\', and the response arrives', async () => {
    const socket = await rawConnect(modem.http);
    socket.write(`GET http://127.0.0.1:${targets.httpPort}/x HTTP/1.1\r\nHost: 127.0.0.1\r\n`
      + `Proxy-Authorization: ${basic(windows.login, windows.password)}\r\nConnection: close\r\n\r\n`);
    const text = (await readAll(socket)).toString();
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toContain('"url":"/x"');
    expect(asked).toEqual([undefined]);
  });
});
