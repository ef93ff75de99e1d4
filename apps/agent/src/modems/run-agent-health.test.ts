import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as IoServer } from 'socket.io';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOST_PROTOCOL, heartbeatSchema, type DesiredModem, type DesiredState, type Heartbeat } from '@cellport/shared/schemas/host-protocol';
import { loadAgentConfig } from '../config.js';
import { runAgent } from '../run-agent.js';
import { FakeHilink, startEchoServer } from '../runtime/drivers/hilink/fake-hilink.js';
import { freePort } from '../proxy/test-support.js';

// The health checks as the server sees them: an agent with a modems file of one fake HiLink dongle, against a peer
// playing the server, which parses each heartbeat with the shared contract. The test drives the checks itself
// (AGENT_HEALTH_INTERVAL_SECONDS=0 turns the timer off); a change of health sends a heartbeat at once.

const KEY = 'chk_healthhealthhealthhealth01';
const IMEI = '867123456789012';
const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => { for (const fn of cleanup.splice(0).reverse()) await fn(); });


describe('an agent\'s heartbeat carries its modems\' health', () => {
  it('degraded while the API hangs (still online), offline with the reason when nothing gets through, online again after the reboot', async () => {
    const dongle = new FakeHilink({ imei: IMEI, publicIp: '203.0.113.10', nextIps: ['203.0.113.30'], switchMs: 30, rebootMs: 200 });
    await dongle.start();
    cleanup.push(() => dongle.stop());
    const echo = await startEchoServer(new Map([['127.0.0.31', () => (dongle.connection === 901 ? dongle.publicIp : null)]]));
    cleanup.push(() => echo.close());
    const dir = await mkdtemp(join(tmpdir(), 'cellport-agent-health-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const modemsFile = join(dir, 'modems.yaml');
    await writeFile(modemsFile, `modems:\n  - driver: hilink\n    management: ${dongle.url}\n    egress: 127.0.0.31\n`);

    const modem: DesiredModem = { id: 'm-h', imei: IMEI, httpPort: await freePort(), socksPort: await freePort(), extIp: '192.0.2.1', driver: 'hilink', isShared: false, ports: [] };
    const state: DesiredState = { version: 'h1', hostId: 'h', hostName: 'rack-2', generatedAt: new Date().toISOString(), modems: [modem] };
    const heartbeats: Heartbeat[] = [];
    const http = createHttpServer();
    const io = new IoServer(http, { path: HOST_PROTOCOL.path });
    io.on('connection', (socket) => {
      socket.emit('state', state);
      socket.on('heartbeat', (hb: unknown) => heartbeats.push(heartbeatSchema.parse(hb)));
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    cleanup.push(() => new Promise<void>((r) => { void io.close(() => r()); }));

    const running = await runAgent(loadAgentConfig({
      CELLPORT_SERVER_URL: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, CELLPORT_HOST_KEY: KEY, AGENT_DATA_DIR: dir,
      AGENT_MODEMS: modemsFile, AGENT_IP_ECHO_URLS: echo.url, AGENT_LISTEN_HOST: '127.0.0.1', LOG_LEVEL: 'silent',
      AGENT_HEALTH_INTERVAL_SECONDS: '0',
    }), { hostModems: {
      // Generous for a healthy answer on a busy machine; the hung API's check waits out health.requestTimeoutMs.
      echoTimeoutMs: 5000, echoDeadlineMs: 10_000,
      hilink: { timeoutMs: 5000, pollMs: 20, connectTimeoutMs: 1500, rebootTimeoutMs: 15_000 }, health: { requestTimeoutMs: 4000 },
    } });
    cleanup.push(() => running.stop());
    const modems = running.hostModems!;
    /** The first heartbeat after `from` whose modem matches. */
    const next = (from: number, check: (m: Heartbeat['modems'][number]) => boolean) => vi.waitFor(() => {
      const found = heartbeats.slice(from).map((h) => h.modems.find((m) => m.imei === IMEI)).find((m) => m && check(m));
      if (!found) throw new Error('no such heartbeat yet');
      return found;
    }, { timeout: 15_000, interval: 20 });

    await next(0, (m) => m.state === 'online');
    await modems.checkHealth();
    expect((await next(0, (m) => m.health !== undefined)).health).toMatchObject({ state: 'online' });

    dongle.hang = true;
    let from = heartbeats.length;
    await modems.checkHealth();
    const degraded = await next(from, (m) => m.health?.state === 'degraded');
    expect(degraded).toMatchObject({ state: 'online', problem: expect.stringMatching(/^management API does not answer/), health: { reason: degraded.problem } });

    // No data, and a reconnect does not help: offline with the reason, told before the recovery starts; the port
    // stays open for the next check.
    dongle.hang = false;
    dongle.stuckConnecting = true;
    dongle.connection = 905;
    await modems.checkHealth();
    from = heartbeats.length;
    await modems.checkHealth();
    const offline = await next(from, (m) => m.health?.state === 'offline');
    expect(offline).toMatchObject({ state: 'offline', problem: expect.stringMatching(/^no request gets through the modem/) });
    expect(modems.health(IMEI)).toMatchObject({ state: 'offline', reason: expect.stringMatching(/the reconnect failed/) });
    expect(running.agents[0]!.snapshot()[0]).toMatchObject({ state: 'offline', problem: expect.stringMatching(/the reconnect failed/) });

    // The next check reboots it; it comes back with a new IP, which the heartbeat carries.
    from = heartbeats.length;
    await modems.checkHealth();
    const back = await next(from, (m) => m.health?.state === 'online');
    expect(back).toMatchObject({ state: 'online', extIp: '203.0.113.30' });
    expect(back.problem).toBeUndefined();
    expect(modems.recoveries(IMEI).map((r) => r.action)).toEqual(['reconnect', 'reboot']);
  });
});
