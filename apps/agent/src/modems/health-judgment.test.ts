import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeHilink } from '../runtime/drivers/hilink/fake-hilink.js';
import { LoopbackPool, SimulatedModemDriver } from '../runtime/drivers/simulated.js';
import { createLogger } from '../runtime/log.js';
import { HostModems } from './host-modems.js';
import { parseModemsFile } from './modems-file.js';

// Issue 28, item 2: an echo that does not answer is not a modem that does not answer. HiLink dongles played by the
// fake HiLink API, each with its own loopback egress, and an IP echo the test can take down (the server, when it is
// the echo) or make refuse one egress (a modem whose data path is broken while it says it is connected). Checks
// are driven directly; offlineAfter is 2, so four rounds are twice what would start the recovery ladder.

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => { for (const fn of cleanup.splice(0).reverse()) await fn(); });

/** An IP echo: answers each caller its address, unless it is down (no answer) or the caller's egress is cut. */
async function startEcho() {
  const control = { up: true, cut: new Set<string>() };
  const server = createServer((req, res) => {
    const from = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '';
    if (!control.up || control.cut.has(from)) return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`${from}\n`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanup.push(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { control, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/ip` };
}

async function setup(count: number) {
  const echo = await startEcho();
  const dongles = await Promise.all(Array.from({ length: count }, async (_, i) => {
    const dongle = new FakeHilink({ imei: `86712345678901${i}`, publicIp: `127.0.0.${61 + i}`, nextIps: [`127.0.0.${61 + i}`], switchMs: 20, rebootMs: 100 });
    await dongle.start();
    cleanup.push(() => dongle.stop());
    return dongle;
  }));
  const dir = await mkdtemp(join(tmpdir(), 'cellport-judgment-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const file = parseModemsFile(JSON.stringify({
    modems: dongles.map((d, i) => ({ driver: 'hilink', name: `slot-${i + 1}`, management: d.url, egress: `127.0.0.${61 + i}` })),
  }), 'modems.json');
  const carried = new Map<string, number>();
  const modems = new HostModems({
    file, dataDir: dir, echoUrls: [echo.url], rotateAttempts: 1, simulated: new SimulatedModemDriver(new LoopbackPool(), 0),
    log: createLogger('silent'), echoTimeoutMs: 3000, echoDeadlineMs: 5000, probeTimeoutMs: 5000,
    hilink: { timeoutMs: 5000, busyBackoffMs: [20], connectTimeoutMs: 2000, rebootTimeoutMs: 10_000, pollMs: 20 },
    // Short: a check through a cut egress waits out this bound.
    health: { requestTimeoutMs: 800 },
    carried: (imei) => carried.get(imei) ?? 0,
  });
  cleanup.push(() => modems.stop());
  await modems.discover();
  expect(modems.inventory()).toHaveLength(count);
  const rounds = async (n: number) => { for (let i = 0; i < n; i++) await modems.checkHealth(); };
  const touched = () => dongles.map((d) => d.reconnects + d.reboots);
  return { echo, dongles, modems, carried, rounds, touched, imei: (i: number) => dongles[i]!.options.imei };
}

describe('a failed health check is held against a modem only when it is the modem\'s', () => {
  it('the echo is down (the server is the default echo): nothing is done to the modem, it is degraded with why; online when the echo is back', async () => {
    const { echo, modems, rounds, touched, imei } = await setup(1);
    await rounds(1);
    expect(modems.health(imei(0))).toMatchObject({ state: 'online' });
    echo.control.up = false;
    await rounds(4);
    expect(touched()).toEqual([0]);
    expect(modems.recoveries(imei(0))).toEqual([]);
    expect(modems.health(imei(0))).toMatchObject({
      state: 'degraded', reason: expect.stringMatching(/no request gets through the modem: .*; not held against the modem: no IP echo answers the host itself either/),
    });
    echo.control.up = true;
    await rounds(1);
    expect(modems.health(imei(0))).toMatchObject({ state: 'online' });
  });

  it('every modem of the host fails at once while the echo answers the host: a host-wide problem, no modem is touched', async () => {
    const { echo, modems, rounds, touched, imei } = await setup(2);
    echo.control.cut = new Set(['127.0.0.61', '127.0.0.62']);
    await rounds(4);
    expect(touched()).toEqual([0, 0]);
    for (const i of [0, 1]) expect(modems.health(imei(i))).toMatchObject({ state: 'degraded', reason: expect.stringMatching(/all 2 modems of the host failed at once/) });
  });

  it('one modem of two fails while the echo answers the host: it is that modem\'s, offline and reconnected; the other is left alone', async () => {
    const { echo, dongles, modems, rounds, touched, imei } = await setup(2);
    echo.control.cut = new Set(['127.0.0.61']);
    await rounds(2);
    expect(touched()).toEqual([1, 0]);
    expect(modems.recoveries(imei(0)).map((r) => r.action)).toEqual(['reconnect']);
    expect(modems.health(imei(1))).toMatchObject({ state: 'online' });
    expect(dongles[1]!.calls.some((c) => c.startsWith('POST'))).toBe(false);
  });

  it('a modem that says it is disconnected is its own failure, even while the echo is down', async () => {
    const { echo, dongles, modems, rounds, imei } = await setup(1);
    echo.control.up = false;
    dongles[0]!.connection = 902;
    await rounds(2);
    expect(modems.recoveries(imei(0)).map((r) => r.action)).toEqual(['reconnect']);
  });

  it('customer traffic the modem carried since the last check proves it works, whatever the echo says; without it the failure counts', async () => {
    const { echo, carried, modems, rounds, touched, imei } = await setup(2);
    echo.control.cut = new Set(['127.0.0.61']);
    for (let i = 1; i <= 4; i++) {
      carried.set(imei(0), i * 1000);
      await rounds(1);
    }
    expect(touched()).toEqual([0, 0]);
    expect(modems.health(imei(0))).toMatchObject({ state: 'degraded', reason: expect.stringMatching(/^it carries customer traffic, but the IP echo does not answer through it/) });
    // The traffic stops: two failed checks in a row, and the ladder starts.
    await rounds(2);
    expect(touched()).toEqual([1, 0]);
  });
});
