import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// Test support: a fake `mmcli` on PATH. It answers `-J` calls with JSON recorded from mmcli 1.20 (a Quectel EC25
// under qmi_wwan), keeps the modems' state in a JSON file beside it, and logs each call. --disconnect/--connect
// change the bearer's state and the modem's public IP (the next of nextIps, or the same one: a collision);
// --reset re-enumerates the modem under the next index, as ModemManager does.

export interface FakeMmcliModem {
  imei: string;
  index: number;
  publicIp: string;
  nextIps: string[];
  connected: boolean;
  address: string;
  bearer?: number;
}
export interface FakeMmcliState { modems: FakeMmcliModem[]; calls: string[]; running: boolean }

const SCRIPT = String.raw`#!/usr/bin/env node
const fs = require('node:fs');
const file = require('node:path').join(__dirname, 'state.json');
const state = JSON.parse(fs.readFileSync(file, 'utf8'));
const args = process.argv.slice(2);
state.calls.push(args.join(' '));
const save = () => fs.writeFileSync(file, JSON.stringify(state));
const fail = (msg) => { save(); process.stderr.write(msg + '\n'); process.exit(1); };
if (!state.running) fail("error: couldn't find the ModemManager process in the bus");
if (args[0] !== '-J') fail('error: this fake only answers -J');
const flag = (name) => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1]; };
const modemArg = flag('-m'), bearerArg = flag('-b');
const modem = modemArg !== undefined ? state.modems.find((m) => String(m.index) === modemArg) : undefined;
const bearerOwner = bearerArg !== undefined ? state.modems.find((m) => String(m.bearer) === bearerArg) : undefined;
const out = (o) => { save(); process.stdout.write(JSON.stringify(o, null, 2) + '\n'); process.exit(0); };
if (args.includes('-L')) out({ 'modem-list': state.modems.map((m) => '/org/freedesktop/ModemManager1/Modem/' + m.index) });
if (modemArg !== undefined && !modem) fail("error: couldn't find modem");
if (bearerArg !== undefined && !bearerOwner) fail("error: couldn't find bearer");
if (modem && args.includes('--signal-get')) out({ modem: { signal: {
  '5g': { 'error-rate': '--', rsrp: '--', rsrq: '--', snr: '--' },
  gsm: { 'error-rate': '--', rssi: '--' },
  lte: { 'error-rate': '--', rsrp: '-97.00', rsrq: '-11.00', rssi: '-68.00', snr: '9.40' },
  refresh: { rate: '10' }, threshold: { 'error-rate': 'no', rssi: '0' }, umts: { ecio: '--', 'error-rate': '--', rscp: '--', rssi: '--' },
} } });
if (modem && args.includes('--reset')) { modem.index += 10; modem.connected = true; modem.publicIp = modem.nextIps.shift() || modem.publicIp; out({}); }
if (modem && args.some((a) => a.startsWith('--simple-connect'))) { modem.bearer = modem.index; modem.connected = true; out({}); }
if (modem) out({ modem: {
  '3gpp': { 'enabled-locks': ['fixed-dialing'], imei: modem.imei, 'operator-code': '26201', 'operator-name': 'Telekom.de', 'packet-service-state': 'attached', pco: '--', 'registration-state': 'home' },
  'dbus-path': '/org/freedesktop/ModemManager1/Modem/' + modem.index,
  generic: {
    'access-technologies': ['lte'], bearers: modem.bearer === undefined ? [] : ['/org/freedesktop/ModemManager1/Bearer/' + modem.bearer],
    'current-capabilities': ['gsm-umts, lte'], 'current-modes': 'allowed: 2g, 3g, 4g; preferred: 4g', device: '/sys/devices/platform/scb/fd500000.pcie/usb2/2-1',
    drivers: ['qmi_wwan', 'option'], 'equipment-identifier': modem.imei, 'hardware-revision': '10000', manufacturer: 'QUALCOMM INCORPORATED',
    model: 'QUECTEL Mobile Broadband Module', 'own-numbers': [], plugin: 'quectel', ports: ['cdc-wdm0 (qmi)', 'ttyUSB0 (qcdm)', 'wwan0 (net)'],
    'power-state': 'on', 'primary-port': 'cdc-wdm0', revision: 'EC25EFAR06A06M4G', 'signal-quality': { recent: 'yes', value: '72' },
    sim: '/org/freedesktop/ModemManager1/SIM/0', state: modem.connected ? 'connected' : 'registered', 'state-failed-reason': '--', 'unlock-required': '--',
  },
} });
if (bearerOwner && args.includes('--disconnect')) { bearerOwner.connected = false; out({}); }
if (bearerOwner && args.includes('--connect')) { bearerOwner.connected = true; bearerOwner.publicIp = bearerOwner.nextIps.shift() || bearerOwner.publicIp; out({}); }
if (bearerOwner) out({ bearer: {
  'dbus-path': '/org/freedesktop/ModemManager1/Bearer/' + bearerOwner.bearer,
  'ipv4-config': bearerOwner.connected ? { address: bearerOwner.address, dns: ['10.74.210.210'], gateway: '10.64.12.8', method: 'static', mtu: '1500', prefix: '30' }
    : { address: '--', dns: [], gateway: '--', method: '--', mtu: '--', prefix: '--' },
  properties: { apn: 'internet.telekom', 'ip-type': 'ipv4v6', roaming: 'allowed' },
  status: { connected: bearerOwner.connected ? 'yes' : 'no', interface: bearerOwner.connected ? 'wwan0' : '--', 'ip-timeout': '20', suspended: 'no' },
  type: 'default',
} });
fail('error: unexpected arguments ' + args.join(' '));
`;

/** Writes the fake into `dir` (put it first on PATH) with the given modems; returns how to read and change its state. */
export async function installFakeMmcli(dir: string, modems: FakeMmcliModem[]) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'mmcli'), SCRIPT);
  await chmod(join(dir, 'mmcli'), 0o755);
  const stateFile = join(dir, 'state.json');
  await writeFile(stateFile, JSON.stringify({ modems, calls: [], running: true } satisfies FakeMmcliState));
  const read = async () => JSON.parse(await readFile(stateFile, 'utf8')) as FakeMmcliState;
  return {
    read,
    change: async (fn: (s: FakeMmcliState) => void) => { const s = await read(); fn(s); await writeFile(stateFile, JSON.stringify(s)); },
  };
}
