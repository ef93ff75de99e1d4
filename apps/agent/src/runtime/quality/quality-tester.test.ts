import { createServer, type Server } from 'node:http';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QualityTester, type QualitySettings, type TestableModem } from './quality-tester.js';
import { speedTest } from './speed-test.js';
import { checkUdp, parseUdpTarget } from './udp-check.js';

// Issue 27, item 8: the agent's own bounded speed and UDP test, through a modem's egress (here a loopback address,
// as the demo's simulated modems are), against a target that keeps the server's contract (SPEED_TEST).

let http: Server;
let base: string;
const seen: Array<{ method: string; from: string; bytes: number; auth: string | undefined }> = [];
let echo: Socket;
let silent: Socket;
const silentGot: Buffer[] = [];
const log = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  http = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => { bytes += c.length; });
    req.on('end', () => {
      const asked = Number(new URL(req.url!, 'http://x').searchParams.get('bytes') ?? 0);
      seen.push({ method: req.method!, from: req.socket.remoteAddress!, bytes: req.method === 'POST' ? bytes : asked, auth: req.headers.authorization });
      if (req.method === 'POST') return res.end(JSON.stringify({ bytes }));
      res.writeHead(200, { 'content-length': String(asked) });
      res.end(Buffer.alloc(asked));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v1/agent/speedtest`;
  echo = createSocket('udp4');
  echo.on('message', (msg, from) => echo.send(msg, from.port, from.address));
  silent = createSocket('udp4');
  silent.on('message', (msg) => silentGot.push(msg));
  await Promise.all([echo, silent].map((s) => new Promise<void>((r) => s.bind(0, '127.0.0.1', r))));
});
afterAll(async () => {
  await new Promise((r) => http.close(r));
  echo.close();
  silent.close();
});

const target = (s: Socket) => parseUdpTarget(`127.0.0.1:${s.address().port}`);

describe('speed test', () => {
  it('measures latency, download and upload through the egress address, with the key', async () => {
    seen.length = 0;
    const result = await speedTest({ url: base, key: 'chk_k', downloadBytes: 300_000, uploadBytes: 200_000, timeoutMs: 10_000 }, '127.0.0.7');
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.downMbps).toBeGreaterThan(0);
    expect(result.upMbps).toBeGreaterThan(0);
    expect(seen.map((s) => [s.method, s.bytes])).toEqual([['GET', 0], ['GET', 0], ['GET', 0], ['GET', 300_000], ['POST', 200_000]]);
    // Every request left from the modem's egress, not the host's own route.
    expect(new Set(seen.map((s) => s.from))).toEqual(new Set(['127.0.0.7']));
    expect(seen.every((s) => s.auth === 'Bearer chk_k')).toBe(true);
  });

  it('fails when the target answers an error', async () => {
    await expect(speedTest({ url: 'http://127.0.0.1:1/x', downloadBytes: 1000, uploadBytes: 1000, timeoutMs: 2000 }, '127.0.0.7')).rejects.toThrow();
  });
});

describe('UDP check', () => {
  it('is true when the target answers the datagram, false when it takes it and answers nothing', async () => {
    expect(await checkUdp(target(echo), '127.0.0.9', 5000)).toBe(true);
    expect(await checkUdp(target(silent), '127.0.0.9', 300)).toBe(false);
    // The positive marker: the silent target did get the query (so "false" is its silence, not a lost send).
    expect(silentGot.length).toBe(1);
    expect(() => parseUdpTarget('no-port')).toThrow('not host:port');
  });
});

describe('QualityTester', () => {
  const settings = (udp: Socket | null): QualitySettings => ({
    intervalMs: 3_600_000, firstDelayMs: 0, retryMs: 600_000, maxConnections: 2, maxBusyBytesPerSecond: 32 * 1024,
    speed: { url: base, downloadBytes: 50_000, uploadBytes: 50_000, timeoutMs: 10_000 }, udp: udp ? target(udp) : null,
  });

  it('tests a quiet modem, leaves a busy one for later, and does not test again before the interval', async () => {
    let clock = 1_000_000;
    const modems: TestableModem[] = [
      { imei: 'quiet', egress: '127.0.0.11', connections: 0, carried: 0 },
      { imei: 'busy', egress: '127.0.0.12', connections: 5, carried: 0 },
    ];
    const results: string[] = [];
    const tester = new QualityTester(() => modems, settings(echo), log, () => clock, (imei) => results.push(imei));
    seen.length = 0;
    await tester.tick();
    expect(results).toEqual(['quiet']);
    expect(tester.result('quiet')).toMatchObject({ udp: true });
    expect(tester.result('busy')).toBeUndefined();
    expect(seen.some((s) => s.from === '127.0.0.12')).toBe(false);

    // Later the busy modem is quiet, but its retry is not due yet; once it is, it is tested; the quiet one is not again.
    modems[1]!.connections = 0;
    clock += 60_000;
    await tester.tick();
    expect(results).toEqual(['quiet']);
    clock += 600_000;
    await tester.tick();
    expect(results).toEqual(['quiet', 'busy']);
  });

  it('a modem moving customer bytes fast is not tested; UDP without a target is null', async () => {
    let clock = 5_000_000;
    const modem: TestableModem = { imei: 'moving', egress: '127.0.0.13', connections: 0, carried: 0 };
    const tester = new QualityTester(() => [modem], { ...settings(null), firstDelayMs: 1000 }, log, () => clock);
    await tester.tick(); // not due: only its carried bytes are noted
    clock += 1000;
    modem.carried = 10_000_000;
    await tester.tick();
    expect(tester.result('moving')).toBeUndefined();
    clock += 600_000;
    await tester.tick();
    expect(tester.result('moving')).toMatchObject({ udp: null });
  });
});
