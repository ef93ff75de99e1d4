import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REP_GENERAL_FAILURE } from '../proxy/socks5-proxy.js';
import {
  access, basic, destroyTestClients, httpConnect, readAll, rawConnect, seenThrough, socksUdpAssociate, startModem, startTargets,
  type Targets, type TestModem,
} from '../proxy/test-support.js';

// A port with an OS fingerprint preset on a modem whose host cannot apply presets (no FingerprintEgress: not root,
// no nftables) refuses every new connection, tunnel, plain request and UDP association, with the reason, instead of
// leaving with the host's own fingerprint (issue 30: fail closed). Its native neighbour on the same modem still works.

let targets: Targets;
let modem: TestModem;
const windows = access('w', { fingerprint: 'windows' });
const native = access('n');

beforeAll(async () => {
  targets = await startTargets();
  modem = await startModem({ ports: [windows, native] });
});
afterEach(destroyTestClients);
afterAll(async () => {
  await modem.close();
  await targets.close();
});

describe('a port whose preset cannot be applied', () => {
  it('refuses a CONNECT with 503 and the reason; the target never sees a connection', async () => {
    const before = targets.seen.length;
    const { socket, status } = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(windows.login, windows.password));
    expect(status).toBe(503);
    expect((await readAll(socket)).toString()).toMatch(/fingerprint preset cannot be applied/);
    expect(targets.seen.length).toBe(before);
    // The native port on the same modem goes through (the positive marker: the target saw exactly that one).
    const ok = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(native.login, native.password));
    expect(ok.status).toBe(200);
    expect(await seenThrough(ok.socket)).toBe('127.0.9.9');
    expect(targets.seen.length).toBe(before + 1);
  });

  it('refuses a plain HTTP request with 503', async () => {
    const socket = await rawConnect(modem.http);
    socket.write(`GET http://127.0.0.1:${targets.httpPort}/x HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Authorization: ${basic(windows.login, windows.password)}\r\nConnection: close\r\n\r\n`);
    const text = (await readAll(socket)).toString();
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text).toMatch(/fingerprint preset cannot be applied/);
  });

  it('refuses a SOCKS5 UDP association (its datagrams would carry the host\'s TTL)', async () => {
    const { reply } = await socksUdpAssociate(modem.socks, { auth: [windows.login, windows.password] });
    expect(reply).toBe(REP_GENERAL_FAILURE);
  });
});
