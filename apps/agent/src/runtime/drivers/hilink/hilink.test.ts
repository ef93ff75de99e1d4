import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostModems, IpCollisionError } from '../../../modems/host-modems.js';
import { parseModemsFile } from '../../../modems/modems-file.js';
import { createLogger } from '../../log.js';
import { LoopbackPool, SimulatedModemDriver } from '../simulated.js';
import { FakeHilink, startEchoServer } from './fake-hilink.js';
import { HilinkClient } from './hilink-client.js';
import { HilinkModem } from './hilink-modem.js';

const IMEI_A = '867123456789012';
const IMEI_B = '867123456789029';
// A generous request timeout: on a busy machine a local answer can take a second. The hung-API test sets its own.
const fast = { timeoutMs: 10_000, busyBackoffMs: [20, 40, 80], connectTimeoutMs: 3000, rebootTimeoutMs: 5000, pollMs: 25 };

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => { for (const fn of cleanup.splice(0).reverse()) await fn(); });

async function fakeModem(options: ConstructorParameters<typeof FakeHilink>[0]): Promise<FakeHilink> {
  const fake = new FakeHilink(options);
  await fake.start();
  cleanup.push(() => fake.stop());
  return fake;
}

/** Two fake dongles, an echo server that knows them by their egress (127.0.0.11, .12), and the host's modems. */
async function farm(a: Partial<ConstructorParameters<typeof FakeHilink>[0]> = {}, rotateAttempts = 3, hilink = fast) {
  const one = await fakeModem({ imei: IMEI_A, publicIp: '203.0.113.10', nextIps: ['203.0.113.11', '203.0.113.12'], ...a });
  const two = await fakeModem({ imei: IMEI_B, publicIp: '198.51.100.20' });
  const echo = await startEchoServer(new Map([
    ['127.0.0.11', () => (one.connection === 901 ? one.publicIp : null)],
    ['127.0.0.12', () => (two.connection === 901 ? two.publicIp : null)],
  ]));
  cleanup.push(() => echo.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'cellport-hilink-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const file = parseModemsFile(JSON.stringify({
    modems: [
      { driver: 'hilink', name: 'left', management: one.url, egress: '127.0.0.11', ...(a.password ? { password: a.password } : {}) },
      { driver: 'hilink', management: two.url, egress: '127.0.0.12' },
    ],
  }), 'modems.json');
  const modems = new HostModems({
    file, dataDir, echoUrls: [echo.url], rotateAttempts, simulated: new SimulatedModemDriver(new LoopbackPool(), 0),
    log: createLogger('silent'), echoTimeoutMs: 10_000, echoDeadlineMs: 20_000, probeTimeoutMs: 10_000, hilink,
  });
  cleanup.push(() => modems.stop());
  return { one, two, echo, modems, dataDir };
}

describe('HiLink driver against a fake dongle', () => {
  it('reads each modem at start (IMEI, model, firmware, operator, signal, network type) and measures its public IP through its egress', async () => {
    const { modems, echo } = await farm();
    expect(await modems.discover()).toBe(true);
    const [left, right] = modems.inventory();
    expect(left).toEqual({
      imei: IMEI_A, driver: 'hilink', name: 'left', manufacturer: 'Huawei', model: 'E3372h-320', firmware: '22.328.62.00.1217',
      operator: 'Vodafone DE', networkType: '4G', signal: { rssi: -67, rsrp: -95, rsrq: -9, sinr: 12 }, connection: 'connected',
      extIp: '203.0.113.10', rotations: { total: 0, succeeded: 0, collisions: 0 },
    });
    expect(right).toMatchObject({ imei: IMEI_B, extIp: '198.51.100.20' });
    // The echo saw the modems' own source addresses, not the host's default one.
    expect(new Set(echo.seen)).toEqual(new Set(['127.0.0.11', '127.0.0.12']));
    expect(modems.adopt('192.0.2.1', IMEI_A)).toBe('203.0.113.10');
    expect(modems.egress({ imei: IMEI_B, extIp: '198.51.100.20' })).toBe('127.0.0.12');
    expect(() => modems.adopt('192.0.2.1', '860000000000001')).toThrow(/not on this host/);
  });

  it('rotates by turning the data switch off and on, reports the new IP the echo sees, and keeps the IP history', async () => {
    const { one, modems } = await farm();
    await modems.discover();
    const statuses: string[] = [];
    const { extIp } = await modems.rotate({ imei: IMEI_A, extIp: '203.0.113.10' }, (s) => statuses.push(s));
    expect(extIp).toBe('203.0.113.11');
    expect(statuses).toEqual(['rotating', 'applying']);
    const switches = one.calls.filter((c) => c.startsWith('POST dialup/mobile-dataswitch'));
    expect(switches).toEqual(['POST dialup/mobile-dataswitch <dataswitch>0</dataswitch>', 'POST dialup/mobile-dataswitch <dataswitch>1</dataswitch>']);
    const history = await modems.ipHistory(IMEI_A);
    expect(history.map((h) => [h.event, h.ip])).toEqual([['start', '203.0.113.10'], ['rotated', '203.0.113.11']]);
    expect(history[1]).toMatchObject({ previous: '203.0.113.10', attempts: 1 });
    expect(modems.inventory()[0]!.rotations).toMatchObject({ total: 1, succeeded: 1, collisions: 0 });
  });

  it('retries a rotation that brings back the same IP, then reports a collision', async () => {
    const { one, modems } = await farm({ nextIps: ['203.0.113.10', '203.0.113.10', '203.0.113.13'] });
    await modems.discover();
    // Same IP twice, a new one on the third reconnect.
    expect((await modems.rotate({ imei: IMEI_A, extIp: '203.0.113.10' }, () => {})).extIp).toBe('203.0.113.13');
    expect(one.calls.filter((c) => c.endsWith('<dataswitch>1</dataswitch>'))).toHaveLength(3);
    // Now the carrier keeps giving the same IP: three reconnects, then a collision.
    const failure = await modems.rotate({ imei: IMEI_A, extIp: '203.0.113.13' }, () => {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(IpCollisionError);
    expect((failure as IpCollisionError).replyCode).toBe('ip_collision');
    expect((failure as Error).message).toMatch(/IP collision: the modem came back with the same IP 203\.0\.113\.13 after 3 reconnects/);
    expect((await modems.ipHistory(IMEI_A)).at(-1)).toMatchObject({ event: 'collision', ip: '203.0.113.13', attempts: 3 });
    expect(modems.inventory()[0]!.rotations).toMatchObject({ total: 2, succeeded: 1, collisions: 1 });
  });

  it('takes a new session and token when the device answers 125002 or 125003, and uses the tokens the responses hand out', async () => {
    const fake = await fakeModem({ imei: IMEI_A, publicIp: '203.0.113.10', nextIps: ['203.0.113.11'] });
    const modem = new HilinkModem({ baseUrl: fake.url, ...fast });
    expect((await modem.details()).imei).toBe(IMEI_A);
    fake.expireSessions();
    expect((await modem.details()).imei).toBe(IMEI_A);
    expect(fake.calls.filter((c) => c === 'GET webserver/SesTokInfo')).toHaveLength(2);
    // Several writes in a row: each carries the token the previous response handed out (the fake accepts each once).
    await modem.reconnect();
    await modem.reconnect();
    expect(fake.calls.filter((c) => c.startsWith('POST'))).toHaveLength(4);
    // A token the device no longer knows (125003 on a write): a new session, and the write goes through.
    fake.failNext = [125003];
    await modem.client.post('dialup/mobile-dataswitch', { dataswitch: 1 });
    expect(fake.calls.filter((c) => c === 'GET webserver/SesTokInfo')).toHaveLength(3);
  });

  it('logs in to a password-protected device with the SHA-256 scheme; a wrong password is a clear error', async () => {
    const fake = await fakeModem({ imei: IMEI_A, publicIp: '203.0.113.10', password: 's3cret!' });
    const modem = new HilinkModem({ baseUrl: fake.url, password: 's3cret!', ...fast });
    expect((await modem.details()).model).toBe('E3372h-320');
    expect(fake.calls).toContain('POST user/login <Username>admin</Username>'
      + `<Password>${fake.calls.find((c) => c.startsWith('POST user/login'))!.match(/<Password>(.*)<\/Password>/)![1]}</Password><password_type>4</password_type>`);
    // The session times out: the client logs in again by itself.
    fake.expireSessions();
    expect((await modem.details()).imei).toBe(IMEI_A);
    expect(fake.calls.filter((c) => c.startsWith('POST user/login'))).toHaveLength(2);

    const wrong = new HilinkModem({ baseUrl: fake.url, password: 'nope', ...fast });
    await expect(wrong.details()).rejects.toThrow(/user\/login: error 108006 \(wrong user name or password\)/);
    const none = new HilinkModem({ baseUrl: fake.url, ...fast });
    await expect(none.details()).rejects.toThrow(/error 100003 \(no rights \(the device wants a login\)\)/);
  });

  it('backs off and retries while the device answers 100004 (system busy), and gives up after the last retry', async () => {
    const fake = await fakeModem({ imei: IMEI_A, publicIp: '203.0.113.10' });
    const client = new HilinkClient({ baseUrl: fake.url, ...fast });
    // Busy while the session is opened, then busy on the request itself.
    fake.failNext = [100004];
    expect((await client.get('device/information')).Imei).toBe(IMEI_A);
    expect(fake.calls).toEqual(['GET webserver/SesTokInfo', 'GET webserver/SesTokInfo', 'GET device/information']);
    fake.failNext = [100004, 100004];
    expect((await client.get('device/information')).Imei).toBe(IMEI_A);
    // fast.busyBackoffMs has three pauses: four tries in all.
    fake.failNext = [100004, 100004, 100004, 100004];
    await expect(client.get('device/information')).rejects.toThrow(/error 100004 \(system busy\)/);
    expect(fake.calls.filter((c) => c === 'GET device/information')).toHaveLength(1 + 3 + 4);
    expect(fake.failNext).toEqual([]);
  });

  it('a hung API fails within the timeout; the modem is left out (offline with the reason) and served once it answers', async () => {
    // Long enough for the answering dongle on a busy machine, short enough to keep the test quick.
    const hung = { ...fast, timeoutMs: 2_000 };
    const { one, modems } = await farm({}, 3, hung);
    one.hang = true;
    expect(await modems.discover()).toBe(true);
    expect(modems.inventory().map((m) => m.imei)).toEqual([IMEI_B]);
    expect(() => modems.adopt('203.0.113.10', IMEI_A)).toThrow(/not answering yet \(modems\[0\] \(left, hilink http:\/\/127\.0\.0\.1:\d+\)\)/);
    await expect(new HilinkModem({ baseUrl: one.url, ...hung }).details()).rejects.toThrow(/no answer within 2000 ms/);
    one.hang = false;
    expect(await modems.discover()).toBe(true);
    expect(modems.adopt('192.0.2.1', IMEI_A)).toBe('203.0.113.10');
  });

  it('reboots through device/control and waits while the API is away, then measures the new IP', async () => {
    const { one, modems } = await farm({ rebootMs: 600, nextIps: ['203.0.113.44'] });
    await modems.discover();
    const started = Date.now();
    await modems.reboot(IMEI_A);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(one.calls).toContain('POST device/control <Control>1</Control>');
    expect(modems.inventory()[0]!.extIp).toBe('203.0.113.44');
    expect((await modems.ipHistory(IMEI_A)).at(-1)).toMatchObject({ event: 'rebooted', ip: '203.0.113.44' });
    // The driver works on after the reboot (a new session: the device forgot the old one).
    expect((await modems.rotate({ imei: IMEI_A, extIp: '203.0.113.44' }, () => {}).catch((e: Error) => e.message))).toMatch(/IP collision/);
  });

  it('a rotation on a dongle stuck in 905 fails with the status in the error', async () => {
    const { one, modems } = await farm({ switchMs: 50 });
    await modems.discover();
    one.stuckConnecting = true;
    const rotation = modems.rotate({ imei: IMEI_A, extIp: '203.0.113.10' }, () => {});
    await expect(rotation).rejects.toThrow(/not connected 3 s after the data switch was turned on \(status: connecting, 905/);
    expect((await modems.ipHistory(IMEI_A)).at(-1)).toMatchObject({ event: 'failed' });
  });
});
