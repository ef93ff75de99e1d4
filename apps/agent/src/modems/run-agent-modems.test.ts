import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as IoServer, type Socket as IoSocket } from 'socket.io';
import { ProxyAgent, request } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOST_PROTOCOL, heartbeatSchema, type DesiredModem, type DesiredState, type Heartbeat, type RotateReply } from '@cellport/shared/schemas/host-protocol';
import { loadAgentConfig } from '../config.js';
import { runAgent } from '../run-agent.js';
import { FakeHilink, startEchoServer } from '../runtime/drivers/hilink/fake-hilink.js';
import { freePort } from '../proxy/test-support.js';

// A stand-alone agent with a modems file of two fake HiLink dongles, against a peer playing the Cellport server:
// the modems are read and reported at start, the one the server knows is served from its own egress, a rotation
// answers the IP the echo sees, and a collision comes back as such.

const KEY = 'chk_modemsmodemsmodemsmodems01';
const IMEI_A = '867123456789012';
const IMEI_B = '867123456789029';
const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => { for (const fn of cleanup.splice(0).reverse()) await fn(); });


/** Waits (vi.waitFor, every 25 ms) until the probe gives a value; on time-out, the probe's last error or what was awaited. */
const until = <T>(probe: () => T | undefined, what: string, timeout = 10_000) =>
  vi.waitFor(async () => {
    const value = await probe();
    if (value === undefined) throw new Error(`timed out waiting for ${what}`);
    return value;
  }, { timeout, interval: 25 });

describe('an agent with a modems file', () => {
  it('reports every configured modem, serves the known one from its egress, rotates to the IP the echo sees, and replies ip_collision', async () => {
    const one = new FakeHilink({ imei: IMEI_A, publicIp: '203.0.113.10', nextIps: ['203.0.113.11'] });
    const two = new FakeHilink({ imei: IMEI_B, publicIp: '198.51.100.20' });
    await one.start();
    await two.start();
    cleanup.push(() => one.stop(), () => two.stop());
    const echo = await startEchoServer(new Map([
      ['127.0.0.11', () => (one.connection === 901 ? one.publicIp : null)],
      ['127.0.0.12', () => (two.connection === 901 ? two.publicIp : null)],
    ]));
    cleanup.push(() => echo.close());
    const site = createHttpServer((req, res) => res.end(req.socket.remoteAddress?.replace('::ffff:', '')));
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    cleanup.push(() => { site.close(); });

    const dir = await mkdtemp(join(tmpdir(), 'cellport-agent-modems-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const modemsFile = join(dir, 'modems.yaml');
    await writeFile(modemsFile, `modems:\n  - driver: hilink\n    management: ${one.url}\n    egress: 127.0.0.11\n`
      + `  - driver: hilink\n    name: spare\n    management: ${two.url}\n    egress: 127.0.0.12\n`);

    // The server knows modem A (and a modem that is not on this host); modem B is new.
    const modemA: DesiredModem = {
      id: 'm-a', imei: IMEI_A, httpPort: await freePort(), socksPort: await freePort(), extIp: '192.0.2.99', driver: 'hilink', isShared: false,
      ports: [{ id: 'p-1', login: 'alice', password: 'secret-a', whitelist: [], state: 'active', expiresAt: new Date(Date.now() + 86_400_000).toISOString() }],
    };
    const elsewhere: DesiredModem = { ...modemA, id: 'm-x', imei: '860000000000001', httpPort: await freePort(), socksPort: await freePort(), ports: [] };
    const state: DesiredState = { version: 'v1', hostId: 'h', hostName: 'rack-1', generatedAt: new Date().toISOString(), modems: [modemA, elsewhere] };
    const heartbeats: Heartbeat[] = [];
    let peer: IoSocket | null = null;
    const http = createHttpServer();
    const io = new IoServer(http, { path: HOST_PROTOCOL.path });
    io.on('connection', (socket) => {
      peer = socket;
      socket.emit('state', state);
      // The server's own contract parses what the agent sends.
      socket.on('heartbeat', (hb: unknown) => heartbeats.push(heartbeatSchema.parse(hb)));
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    cleanup.push(() => new Promise<void>((r) => { void io.close(() => r()); }));

    const running = await runAgent(loadAgentConfig({
      CELLPORT_SERVER_URL: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, CELLPORT_HOST_KEY: KEY, AGENT_DATA_DIR: dir,
      AGENT_MODEMS: modemsFile, AGENT_IP_ECHO_URLS: echo.url, AGENT_LISTEN_HOST: '127.0.0.1', AGENT_ALLOW_LOOPBACK: 'true', LOG_LEVEL: 'silent',
      AGENT_ROTATE_ATTEMPTS: '2',
    }), { hostModems: { echoTimeoutMs: 10_000, echoDeadlineMs: 20_000, hilink: { timeoutMs: 10_000, pollMs: 25, connectTimeoutMs: 3000 } } });
    cleanup.push(() => running.stop());

    const hb = await until(() => heartbeats.find((h) => h.stateVersion === 'v1' && h.modems.length === 2), 'a heartbeat with the state applied');
    expect(hb.inventory).toEqual([
      expect.objectContaining({ imei: IMEI_A, driver: 'hilink', model: 'E3372h-320', operator: 'Vodafone DE', networkType: '4G', extIp: '203.0.113.10' }),
      expect.objectContaining({ imei: IMEI_B, driver: 'hilink', name: 'spare', extIp: '198.51.100.20' }),
    ]);
    // The known modem reports its measured public IP; the one not on this host is offline with the reason.
    expect(hb.modems).toEqual(expect.arrayContaining([
      expect.objectContaining({ imei: IMEI_A, state: 'online', extIp: '203.0.113.10' }),
      expect.objectContaining({ imei: '860000000000001', state: 'offline', problem: expect.stringMatching(/not on this host: not in its modems file/) }),
    ]));

    const seenThroughProxy = async () => {
      const res = await request(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`, {
        dispatcher: new ProxyAgent({ uri: `http://127.0.0.1:${modemA.httpPort}`, token: `Basic ${Buffer.from('alice:secret-a').toString('base64')}` }),
      });
      return res.body.text();
    };
    expect(await seenThroughProxy()).toBe('127.0.0.11');

    const rotated = await peer!.timeout(10_000).emitWithAck('rotate', { commandId: 'c1', imei: IMEI_A }) as RotateReply;
    expect(rotated).toEqual({ ok: true, extIp: '203.0.113.11' });
    expect(await seenThroughProxy()).toBe('127.0.0.11');
    const collided = await peer!.timeout(10_000).emitWithAck('rotate', { commandId: 'c2', imei: IMEI_A }) as RotateReply;
    expect(collided).toMatchObject({ ok: false, code: 'ip_collision', error: expect.stringMatching(/IP collision.*203\.0\.113\.11 after 2 reconnects/) });
    // What the next heartbeat carries (they come every 10 s).
    expect(running.hostModems!.inventory()[0]).toMatchObject({ extIp: '203.0.113.11', rotations: { total: 2, succeeded: 1, collisions: 1 } });
  });

  it('does not start with a wrong modems file: the error names the entry and the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cellport-agent-modems-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'modems.json'), JSON.stringify({ modems: [{ driver: 'hilink', management: 'http://192.168.8.1', egress: 'not an interface' }] }));
    await expect(runAgent(loadAgentConfig({
      CELLPORT_SERVER_URL: 'http://127.0.0.1:9', CELLPORT_HOST_KEY: KEY, AGENT_DATA_DIR: dir, AGENT_MODEMS: join(dir, 'modems.json'), LOG_LEVEL: 'silent',
    }))).rejects.toThrow(/modems\[0\] \(hilink http:\/\/192\.168\.8\.1\): egress must be an IP address or an interface name/);
  });
});
