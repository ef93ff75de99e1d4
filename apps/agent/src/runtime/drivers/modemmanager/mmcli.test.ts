import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostModems } from '../../../modems/host-modems.js';
import { parseModemsFile } from '../../../modems/modems-file.js';
import { createLogger } from '../../log.js';
import { startEchoServer } from '../hilink/fake-hilink.js';
import { LoopbackPool, SimulatedModemDriver } from '../simulated.js';
import { installFakeMmcli, type FakeMmcliModem } from './fake-mmcli.js';
import { ModemManagerModem, listModems } from './mmcli.js';

const IMEI = '861234567890123';
const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => { for (const fn of cleanup.splice(0).reverse()) await fn(); });

async function setup(modems: Partial<FakeMmcliModem>[] = [{}]) {
  const dir = await mkdtemp(join(tmpdir(), 'cellport-mmcli-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const fake = await installFakeMmcli(join(dir, 'bin'), modems.map((m, i) => ({
    imei: IMEI, index: i, publicIp: '203.0.113.50', nextIps: ['203.0.113.51'], connected: true, address: '10.64.12.7', bearer: i, ...m,
  })));
  // The fake is found on PATH, as the real one would be (execFile, no shell).
  const env = { ...process.env, PATH: `${join(dir, 'bin')}${delimiter}${process.env.PATH ?? ''}` };
  return { dir, fake, env };
}

describe('ModemManager driver against a fake mmcli on PATH', () => {
  it('lists modems and reads IMEI, model, operator, signal and network type from mmcli -J', async () => {
    const { env, fake } = await setup([{}, { imei: '861234567890131', index: 1, bearer: 1 }]);
    expect(await listModems({ env })).toEqual([0, 1]);
    const details = await new ModemManagerModem({ imei: '861234567890131', env }).details();
    expect(details).toEqual({
      imei: '861234567890131', manufacturer: 'QUALCOMM INCORPORATED', model: 'QUECTEL Mobile Broadband Module', firmware: 'EC25EFAR06A06M4G',
      operator: 'Telekom.de', networkType: '4G', signal: { quality: 72, rssi: -68, rsrp: -97, rsrq: -11, sinr: 9.4 },
      connection: 'connected', wanIp: '10.64.12.7',
    });
    expect((await fake.read()).calls.every((c) => c.startsWith('-J '))).toBe(true);
  });

  it('rotates by disconnecting and reconnecting the bearer, measured through the egress; the IP history is kept', async () => {
    const { env, fake, dir } = await setup();
    const echo = await startEchoServer(new Map([['127.0.0.21', () => {
      const modem = (JSON.parse(readFileSync(join(dir, 'bin', 'state.json'), 'utf8')) as { modems: FakeMmcliModem[] }).modems[0]!;
      return modem.connected ? modem.publicIp : null;
    }]]));
    cleanup.push(() => echo.close());
    const modems = new HostModems({
      file: parseModemsFile(`modems:\n  - driver: modemmanager\n    match: { imei: "${IMEI}" }\n    egress: 127.0.0.21\n`, 'modems.yaml'),
      dataDir: dir, echoUrls: [echo.url], rotateAttempts: 2, simulated: new SimulatedModemDriver(new LoopbackPool(), 0), log: createLogger('silent'),
      echoTimeoutMs: 1000, echoDeadlineMs: 3000, mmcli: { env, pollMs: 20, connectTimeoutMs: 3000 },
    });
    await modems.discover();
    expect(modems.inventory()).toMatchObject([{ imei: IMEI, driver: 'modemmanager', operator: 'Telekom.de', extIp: '203.0.113.50' }]);
    expect((await modems.rotate({ imei: IMEI, extIp: '203.0.113.50' }, () => {})).extIp).toBe('203.0.113.51');
    const calls = (await fake.read()).calls;
    expect(calls).toContain('-J -b 0 --disconnect');
    expect(calls.indexOf('-J -b 0 --connect')).toBeGreaterThan(calls.indexOf('-J -b 0 --disconnect'));
    // The carrier keeps the IP now: two reconnects, then a collision.
    await expect(modems.rotate({ imei: IMEI, extIp: '203.0.113.51' }, () => {})).rejects.toThrow(/IP collision.*203\.0\.113\.51 after 2 reconnects/);
    expect((await modems.ipHistory(IMEI)).map((h) => h.event)).toEqual(['start', 'rotated', 'collision']);
  });

  it('follows a modem that re-enumerates under another index when matched by IMEI; by index it is gone, with a clear error', async () => {
    const { env, fake } = await setup();
    const byImei = new ModemManagerModem({ imei: IMEI, env });
    const byIndex = new ModemManagerModem({ index: 0, env });
    expect((await byImei.details()).imei).toBe(IMEI);
    await fake.change((s) => { s.modems[0]!.index = 3; s.modems[0]!.bearer = 5; });
    expect((await byImei.details()).imei).toBe(IMEI);
    await expect(byIndex.details()).rejects.toThrow(/mmcli modem 0 is gone \(unplugged or re-enumerated; use match: \{ imei \} to follow it\)/);
    await fake.change((s) => { s.modems = []; });
    await expect(byImei.details()).rejects.toThrow(/ModemManager has no modem with IMEI 861234567890123/);
  });

  it('resets the modem and waits for it to come back connected under its new index', async () => {
    const { env, fake } = await setup();
    const modem = new ModemManagerModem({ imei: IMEI, env, pollMs: 20 });
    await modem.reboot();
    expect((await fake.read()).calls).toContain('-J -m 0 --reset');
    expect((await modem.details()).imei).toBe(IMEI);
    expect((await fake.read()).modems[0]!.index).toBe(10);
  });

  it('connects a modem without a bearer with its APN; without an APN the error says what to do', async () => {
    const { env, fake } = await setup([{ bearer: undefined, connected: false }]);
    await expect(new ModemManagerModem({ index: 0, env }).reconnect()).rejects.toThrow(/has no bearer to reconnect: connect it once, or give its apn/);
    await new ModemManagerModem({ index: 0, env, apn: 'internet.telekom', pollMs: 20 }).reconnect();
    expect((await fake.read()).calls).toContain('-J -m 0 --simple-connect=apn=internet.telekom');
  });

  it('says so when mmcli is not installed or ModemManager is not running', async () => {
    const { env, fake, dir } = await setup();
    await expect(listModems({ env: { ...env, PATH: join(dir, 'empty') } })).rejects.toThrow(/mmcli is not installed on this host \(apt install modemmanager\)/);
    await fake.change((s) => { s.running = false; });
    await expect(new ModemManagerModem({ index: 0, env }).details()).rejects.toThrow(/ModemManager is not running \(systemctl start ModemManager\)/);
  });
});
