import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../drivers/modem-backend.js';
import { createLogger } from '../log.js';
import { DEFAULT_HEALTH, ModemHealthChecker, type RecoveryAction } from './modem-health.js';
import { powerCycleArgv, runPowerCycle } from './power-cycle.js';

const MINUTE = 60_000;
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => { for (const fn of cleanup.splice(0).reverse()) await fn(); });

/**
 * A modem driven by the test: whether its API answers, what it says of its connection, whether a request gets
 * through; each recovery action is recorded and may bring it back. The clock is the test's own.
 */
function scripted(options: { fixedBy?: RecoveryAction; failing?: RecoveryAction[] } = {}) {
  const modem = { api: true, connection: 'connected' as ConnectionState, passes: true, ip: '203.0.113.10', now: 0 };
  const done: RecoveryAction[] = [];
  const act = (action: RecoveryAction) => async () => {
    done.push(action);
    if (options.failing?.includes(action)) throw new Error(`${action} refused`);
    if (options.fixedBy === action) { modem.passes = true; modem.connection = 'connected'; }
  };
  const checker = new ModemHealthChecker('modems[0] (test)', {
    connection: async () => { if (!modem.api) throw new Error('HiLink http://192.168.8.1 monitoring/status: ECONNREFUSED'); return modem.connection; },
    publicIp: async () => { if (!modem.passes) throw new Error('http://echo/ did not answer within 10000 ms'); return modem.ip; },
  }, { reconnect: act('reconnect'), reboot: act('reboot'), powerCycle: act('powerCycle') }, DEFAULT_HEALTH, createLogger('silent'), () => modem.now);
  return { modem, done, checker };
}

describe('a modem\'s health checks', () => {
  it('online when the API answers, it is connected and a request gets through; degraded when only traffic flows; a reason each time', async () => {
    const { modem, checker } = scripted();
    expect(await checker.check()).toEqual({ state: 'online', extIp: '203.0.113.10' });
    modem.api = false;
    expect(await checker.check()).toMatchObject({ state: 'degraded', reason: 'management API does not answer: HiLink http://192.168.8.1 monitoring/status: ECONNREFUSED' });
    modem.api = true;
    modem.connection = 'connecting';
    expect(await checker.check()).toMatchObject({ state: 'degraded', reason: 'the modem says it is connecting, not connected' });
    modem.connection = 'connected';
    expect(await checker.check()).toEqual({ state: 'online', extIp: '203.0.113.10' });
    expect(checker.report()).toMatchObject({ state: 'online' });
    expect(checker.recoveries).toEqual([]);
  });

  it('one failed request is degraded and touches nothing; the second in a row is offline and starts recovery', async () => {
    const { modem, done, checker } = scripted({ fixedBy: 'reconnect' });
    modem.passes = false;
    const first = await checker.check();
    expect(first).toMatchObject({ state: 'degraded', reason: expect.stringMatching(/^no request gets through the modem: http:\/\/echo\/ did not answer/) });
    expect(done).toEqual([]);
    // A modem that answers again at the next check was never offline (a flap within one interval notifies nobody).
    modem.passes = true;
    expect((await checker.check()).state).toBe('online');
    modem.passes = false;
    expect((await checker.check()).state).toBe('degraded');
    // Second failure in a row: offline, a reconnect, and a look at once: it is back.
    const second = await checker.check();
    expect(second).toMatchObject({ state: 'online', recovery: { action: 'reconnect', ok: true } });
    expect(done).toEqual(['reconnect']);
  });

  it('escalates: reconnect, then reboot (at most once per 30 min), then the power cycle, then reconnects until a limit allows more', async () => {
    const { modem, done, checker } = scripted({ failing: ['reconnect'] });
    modem.passes = false;
    modem.api = false;
    await checker.check();
    const offline = await checker.check();
    expect(offline).toMatchObject({ state: 'offline', recovery: { action: 'reconnect', ok: false, error: 'reconnect refused' } });
    expect(offline.reason).toMatch(/no request gets through the modem: .*; management API does not answer: .*; the reconnect failed: reconnect refused$/);
    expect(checker.report()).toMatchObject({ state: 'offline', reason: offline.reason });

    modem.now += 0.5 * MINUTE;
    expect((await checker.check()).recovery?.action).toBe('reboot');
    modem.now += 0.5 * MINUTE;
    expect((await checker.check()).recovery?.action).toBe('powerCycle');
    for (let i = 0; i < 3; i++) {
      modem.now += 0.5 * MINUTE;
      expect(await checker.check()).toMatchObject({ state: 'offline', recovery: { action: 'reconnect' } });
    }
    expect(done).toEqual(['reconnect', 'reboot', 'powerCycle', 'reconnect', 'reconnect', 'reconnect']);

    // 30 minutes after the reboot another one is allowed; the power cycle's 30 minutes come a check later.
    modem.now = 30 * MINUTE + 0.5 * MINUTE;
    expect((await checker.check()).recovery?.action).toBe('reboot');
    modem.now += 0.5 * MINUTE;
    expect((await checker.check()).recovery?.action).toBe('powerCycle');
    expect(checker.recoveries.map((r) => [r.action, r.at])).toEqual([
      ['reconnect', 0], ['reboot', 0.5 * MINUTE], ['powerCycle', MINUTE], ['reconnect', 1.5 * MINUTE], ['reconnect', 2 * MINUTE],
      ['reconnect', 2.5 * MINUTE], ['reboot', 30.5 * MINUTE], ['powerCycle', 31 * MINUTE],
    ]);
  });

  it('a recovery that works brings the modem online in the same check; the next outage starts with a reconnect, and a reboot waits for its 30 minutes', async () => {
    const { modem, done, checker } = scripted({ fixedBy: 'reboot', failing: ['reconnect'] });
    modem.passes = false;
    await checker.check();
    await checker.check();
    const back = await checker.check();
    expect(back).toMatchObject({ state: 'online', recovery: { action: 'reboot', ok: true } });
    expect(done).toEqual(['reconnect', 'reboot']);

    // Down again 10 minutes later: a reconnect, then no reboot (the last was 10 minutes ago) but the power cycle.
    modem.now = 10 * MINUTE;
    modem.passes = false;
    await checker.check();
    expect((await checker.check()).recovery?.action).toBe('reconnect');
    expect((await checker.check()).recovery?.action).toBe('powerCycle');
    expect((await checker.check()).recovery?.action).toBe('reconnect');
    modem.now = 31 * MINUTE;
    expect(await checker.check()).toMatchObject({ state: 'online', recovery: { action: 'reboot' } });
  });

  it('checks do not overlap: a check asked for while one runs gets that one\'s result', async () => {
    const { checker } = scripted();
    const [a, b] = [checker.check(), checker.check()];
    expect(a).toBe(b);
    await a;
  });
});

describe('the power-cycle command', () => {
  it('fills in the USB port (and its hub and port number) word by word, and refuses what the modem cannot fill in', () => {
    expect(powerCycleArgv('uhubctl -l {usbHub} -p {usbHubPort} -a cycle', { usbPort: '1-1.4' })).toEqual(['uhubctl', '-l', '1-1', '-p', '4', '-a', 'cycle']);
    expect(powerCycleArgv('uhubctl -l {usbHub} -p {usbHubPort} -a cycle', { usbPort: '2-3' })).toEqual(['uhubctl', '-l', '2', '-p', '3', '-a', 'cycle']);
    expect(powerCycleArgv(['/usr/local/bin/relay', 'cycle port', '{usbPort}'], { usbPort: '1-1.2' })).toEqual(['/usr/local/bin/relay', 'cycle port', '1-1.2']);
    expect(() => powerCycleArgv('uhubctl -l {usbHub}', {})).toThrow(/needs \{usbHub\}, and this modem has no usbPort/);
    expect(() => powerCycleArgv('cycle {port}', { usbPort: '1-1' })).toThrow(/unknown placeholder \{port\}/);
  });

  it('runs without a shell, bounded by its timeout, and says why it failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cellport-power-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const out = join(dir, 'out');
    // A value with shell syntax in it arrives as one literal argument.
    await runPowerCycle([process.execPath, '-e', 'require("fs").writeFileSync(process.argv[1], process.argv[2])', out, '$(touch pwned); 1-1'], 5000);
    expect(await readFile(out, 'utf8')).toBe('$(touch pwned); 1-1');
    await expect(runPowerCycle([process.execPath, '-e', 'process.stderr.write("no such hub\\n"); process.exit(3)'], 5000))
      .rejects.toThrow(/failed \(exit code 3\): no such hub/);
    await expect(runPowerCycle([process.execPath, '-e', 'setInterval(() => {}, 1000)'], 300)).rejects.toThrow(/did not finish within 300 ms/);
    await expect(runPowerCycle(['cellport-no-such-tool'], 1000)).rejects.toThrow(/not installed/);
  });
});
