import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeHilink, startEchoServer } from '../runtime/drivers/hilink/fake-hilink.js';
import { LoopbackPool, SimulatedModemDriver } from '../runtime/drivers/simulated.js';
import { createLogger } from '../runtime/log.js';
import { HostModems } from './host-modems.js';
import { parseModemsFile } from './modems-file.js';

// Health checks and recovery through the real drivers: a HiLink dongle played by the fake HiLink web API, and a
// simulated modem whose "power" is a file the power-cycle command writes. The echo server answers a modem's public IP
// only while the fake says it is connected, from the modem's own egress address. Checks are driven directly.

const IMEI = '867123456789012';
const SIM_IMEI = '860000000000077';
const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => { for (const fn of cleanup.splice(0).reverse()) await fn(); });

async function setup(fake: Partial<ConstructorParameters<typeof FakeHilink>[0]> = {}) {
  const dongle = new FakeHilink({ imei: IMEI, publicIp: '203.0.113.10', switchMs: 30, rebootMs: 200, ...fake });
  await dongle.start();
  cleanup.push(() => dongle.stop());
  const dir = await mkdtemp(join(tmpdir(), 'cellport-health-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const power = join(dir, 'power-cycled');
  const hilinkCycled = join(dir, 'hilink-cycled');
  // A stand-in for uhubctl: writes its arguments to the file named first.
  const tool = join(dir, 'cycle.js');
  await writeFile(tool, 'require("fs").writeFileSync(process.argv[2], process.argv.slice(3).join(" "));\n');
  const echo = await startEchoServer(new Map([
    ['127.0.0.21', () => (dongle.connection === 901 ? dongle.publicIp : null)],
    // The simulated modem carries traffic once its USB port was power-cycled (the command wrote the file).
    ['127.0.0.22', () => (existsSync(power) ? '198.51.100.22' : null)],
  ]));
  cleanup.push(() => echo.close());
  const file = parseModemsFile(JSON.stringify({
    modems: [
      { driver: 'hilink', name: 'slot-1', management: dongle.url, egress: '127.0.0.21', usbPort: '1-1.3', powerCycle: [process.execPath, tool, hilinkCycled, 'hilink', '{usbPort}'] },
      { driver: 'simulated', name: 'sim', imei: SIM_IMEI, egress: '127.0.0.22', usbPort: '1-1.4' },
    ],
  }), 'modems.json');
  const changes: string[] = [];
  const modems = new HostModems({
    file, dataDir: dir, echoUrls: [echo.url], rotateAttempts: 1, simulated: new SimulatedModemDriver(new LoopbackPool(), 0),
    // Bounds for a healthy answer are generous (a busy machine must not make a working modem look hung); a hung API
    // makes its check wait out health.requestTimeoutMs.
    log: createLogger('silent'), echoTimeoutMs: 5000, echoDeadlineMs: 10_000, probeTimeoutMs: 5000,
    hilink: { timeoutMs: 5000, busyBackoffMs: [20], connectTimeoutMs: 2000, rebootTimeoutMs: 15_000, pollMs: 20 },
    health: { requestTimeoutMs: 4000 },
    // The host's template for modems without a command of their own.
    powerCycleCommand: `${process.execPath} ${tool} ${power} sim {usbPort} {usbHub} {usbHubPort}`,
    onHealthChange: (imei) => changes.push(imei),
  });
  cleanup.push(() => modems.stop());
  await modems.discover();
  expect(modems.inventory().map((m) => m.imei)).toEqual([IMEI, SIM_IMEI]);
  return { dongle, modems, power, hilinkCycled, changes };
}

describe('modem health through the real drivers', () => {
  it('a HiLink whose API hangs is degraded with the reason while traffic flows, and online once the API answers', async () => {
    const { dongle, modems, changes } = await setup();
    expect((await modems.checkHealth()).get(IMEI)).toEqual({ state: 'online', extIp: '203.0.113.10' });
    expect(modems.health(IMEI)).toMatchObject({ state: 'online' });

    dongle.hang = true;
    const hung = (await modems.checkHealth()).get(IMEI)!;
    expect(hung).toMatchObject({ state: 'degraded', reason: expect.stringMatching(/^management API does not answer: .*no answer within \d+ ms/) });
    expect(modems.health(IMEI)).toMatchObject({ state: 'degraded', reason: hung.reason });
    expect(changes).toContain(IMEI);
    // Traffic flows, so nothing was done to the modem.
    expect(modems.recoveries(IMEI)).toEqual([]);

    dongle.hang = false;
    expect((await modems.checkHealth()).get(IMEI)).toMatchObject({ state: 'online' });
    expect(modems.health(IMEI)).toEqual({ state: 'online', since: expect.any(String) });
  });

  it('a HiLink that lost its data connection is offline at the second failed check and comes back by a reconnect', async () => {
    const { dongle, modems } = await setup({ nextIps: ['203.0.113.11'] });
    dongle.connection = 902;
    expect((await modems.checkHealth()).get(IMEI)).toMatchObject({
      state: 'degraded', reason: expect.stringMatching(/^no request gets through the modem: .*; the modem says it is disconnected, not connected$/),
    });
    const before = dongle.calls.length;
    const recovered = (await modems.checkHealth()).get(IMEI)!;
    expect(recovered).toMatchObject({ state: 'online', extIp: '203.0.113.11', recovery: { action: 'reconnect', ok: true } });
    expect(dongle.calls.slice(before).filter((c) => c.startsWith('POST'))).toEqual([
      'POST dialup/mobile-dataswitch <dataswitch>0</dataswitch>', 'POST dialup/mobile-dataswitch <dataswitch>1</dataswitch>',
    ]);
    // The new IP is the modem's now, for the heartbeat and the IP history.
    expect(modems.currentIp(IMEI)).toBe('203.0.113.11');
    expect((await modems.ipHistory(IMEI)).at(-1)).toMatchObject({ event: 'changed', ip: '203.0.113.11', previous: '203.0.113.10' });
  });

  it('a HiLink stuck connecting: the reconnect fails, a reboot brings it back; the next outage gets the power cycle, not a second reboot', async () => {
    const { dongle, modems, hilinkCycled } = await setup({ nextIps: ['203.0.113.12'] });
    dongle.stuckConnecting = true;
    dongle.connection = 905;
    await modems.checkHealth();
    const offline = (await modems.checkHealth()).get(IMEI)!;
    expect(offline).toMatchObject({ state: 'offline', recovery: { action: 'reconnect', ok: false } });
    expect(offline.reason).toMatch(/the reconnect failed: HiLink .* not connected 2 s after the data switch was turned on \(status: connecting, 905/);
    expect(modems.health(IMEI)).toMatchObject({ state: 'offline', reason: offline.reason!.slice(0, 300) });

    const rebooted = (await modems.checkHealth()).get(IMEI)!;
    expect(rebooted).toMatchObject({ state: 'online', extIp: '203.0.113.12', recovery: { action: 'reboot', ok: true } });
    expect(dongle.calls).toContain('POST device/control <Control>1</Control>');

    // Down again at once: reconnect (stuck), then no second reboot within 30 minutes: the USB port's power cycle.
    dongle.connection = 905;
    await modems.checkHealth();
    expect((await modems.checkHealth()).get(IMEI)!.recovery).toMatchObject({ action: 'reconnect', ok: false });
    expect((await modems.checkHealth()).get(IMEI)).toMatchObject({ state: 'offline', recovery: { action: 'powerCycle', ok: true } });
    expect(await readFile(hilinkCycled, 'utf8')).toBe('hilink 1-1.3');
    expect(modems.recoveries(IMEI).map((r) => r.action)).toEqual(['reconnect', 'reboot', 'reconnect', 'powerCycle']);
    expect(dongle.calls.filter((c) => c === 'POST device/control <Control>1</Control>')).toHaveLength(1);
  }, 60_000);

  it('a simulated modem with no way to reconnect goes straight to the host\'s power-cycle command for its USB port', async () => {
    const { modems, power } = await setup();
    expect((await modems.checkHealth()).get(SIM_IMEI)).toMatchObject({ state: 'degraded', reason: expect.stringMatching(/^no request gets through the modem: .*HTTP 502/) });
    const back = (await modems.checkHealth()).get(SIM_IMEI)!;
    expect(back).toMatchObject({ state: 'online', extIp: '198.51.100.22', recovery: { action: 'powerCycle', ok: true } });
    expect(await readFile(power, 'utf8')).toBe('sim 1-1.4 1-1 4');
    expect(modems.health(SIM_IMEI)).toMatchObject({ state: 'online' });
  });

  it('refuses at start a power-cycle command the modem cannot fill in', async () => {
    const file = parseModemsFile(JSON.stringify({ modems: [{ driver: 'simulated', imei: SIM_IMEI, egress: '127.0.0.22' }] }), 'modems.json');
    expect(() => new HostModems({
      file, dataDir: tmpdir(), echoUrls: ['http://127.0.0.1:9/'], rotateAttempts: 1, simulated: new SimulatedModemDriver(new LoopbackPool(), 0),
      log: createLogger('silent'), powerCycleCommand: 'uhubctl -l {usbHub} -p {usbHubPort} -a cycle',
    })).toThrow(/modems\[0\] \(simulated imei 860000000000077\): the power-cycle command needs \{usbHub\}, and this modem has no usbPort/);
  });
});
