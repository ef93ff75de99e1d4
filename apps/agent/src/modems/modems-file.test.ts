import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentConfigError } from '../config.js';
import { loadModemsFile, parseModemsFile, resolveEgress } from './modems-file.js';

const YAML = `
modems:
  - driver: hilink
    name: left rack 1
    management: http://192.168.8.1
    egress: 192.168.8.100        # or an interface name, e.g. eth1
  - driver: hilink
    management: http://192.168.18.1
    egress: eth2
    password: s3cret
  - driver: modemmanager
    modem: 0                     # mmcli's index
    egress: wwan0
  - driver: modemmanager
    match: { imei: "861234567890123" }
    egress: wwan1
    apn: internet
`;

function refused(text: string, path = 'modems.yaml'): string {
  try {
    parseModemsFile(text, path);
  } catch (err) {
    expect(err).toBeInstanceOf(AgentConfigError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('the modems file (AGENT_MODEMS)', () => {
  it('reads the README\'s YAML example, and the same as JSON', async () => {
    const file = parseModemsFile(YAML, 'modems.yaml');
    expect(file.modems.map((m) => m.driver)).toEqual(['hilink', 'hilink', 'modemmanager', 'modemmanager']);
    expect(file.modems[0]).toEqual({ driver: 'hilink', name: 'left rack 1', management: 'http://192.168.8.1', egress: '192.168.8.100', username: 'admin' });
    expect(file.modems[3]).toMatchObject({ match: { imei: '861234567890123' }, apn: 'internet' });
    const dir = await mkdtemp(join(tmpdir(), 'cellport-modems-'));
    try {
      await writeFile(join(dir, 'modems.json'), JSON.stringify(file));
      expect(await loadModemsFile(join(dir, 'modems.json'))).toEqual(file);
      await expect(loadModemsFile(join(dir, 'missing.yaml'))).rejects.toThrow(/AGENT_MODEMS \(.*missing\.yaml\) cannot be read/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the entry and the field of every mistake, all at once', () => {
    const message = refused(`
modems:
  - driver: hilink
    management: 192.168.8.1
    egress: 192.168.8.100
  - driver: modemmanager
    egress: wwan0
  - driver: hilink
    management: http://192.168.18.1
    egress: "eth 2"
    pasword: typo
    gateway: dongle
  - driver: huawei
    egress: eth3
`);
    expect(message).toContain('fix AGENT_MODEMS (modems.yaml)');
    expect(message).toMatch(/modems\[0\] \(hilink 192\.168\.8\.1\): management must be the dongle's web address/);
    expect(message).toMatch(/modems\[1\] \(modemmanager\): give either modem \(mmcli's index\) or match: \{ imei \}/);
    expect(message).toMatch(/modems\[2\] \(hilink http:\/\/192\.168\.18\.1\): egress must be an IP address or an interface name/);
    expect(message).toMatch(/modems\[2\] .*pasword/);
    expect(message).toMatch(/modems\[2\] \(hilink http:\/\/192\.168\.18\.1\): gateway must be the IPv4 address the modem's traffic is routed through/);
    expect(message).toMatch(/modems\[3\]: driver must be hilink, modemmanager or simulated/);
    expect(message).not.toContain('undefined');
  });

  // Issue 28, item 5: alone, this mistake reached the duplicate check, which parsed the address and threw a TypeError.
  it('names the entry and the field of a management address without http://, when it is the only mistake', () => {
    const message = refused(`
modems:
  - driver: hilink
    management: 192.168.8.1
    egress: eth1
`);
    expect(message).toBe('The agent cannot start; fix AGENT_MODEMS (modems.yaml):\n'
      + '  modems[0] (hilink 192.168.8.1): management must be the dongle\'s web address, e.g. http://192.168.8.1');
  });

  // Issue 26, item 4: the development outbox takes exactly 127.0.0.1 for the person at this machine.
  it('refuses 127.0.0.1 as a simulated modem\'s egress', () => {
    expect(refused(`
modems:
  - { driver: simulated, imei: "350000000000001", egress: 127.0.0.1 }
`)).toMatch(/modems\[0\] \(simulated imei 350000000000001\): egress must be a loopback address other than 127\.0\.0\.1/);
  });

  it('refuses two entries for one modem, one egress or one management address', () => {
    const message = refused(`
modems:
  - { driver: hilink, management: "http://192.168.8.1", egress: eth1 }
  - { driver: hilink, management: "http://192.168.8.1/", egress: eth1 }
  - { driver: modemmanager, match: { imei: "861234567890123" }, egress: wwan0 }
  - { driver: modemmanager, match: { imei: "861234567890123" }, egress: wwan1 }
`);
    expect(message).toMatch(/modems\[1\] .*: egress is the same as entry 0's \(egress eth1\)/);
    expect(message).toMatch(/modems\[1\] .*: management is the same as entry 0's \(management 192\.168\.8\.1\)/);
    expect(message).toMatch(/modems\[3\] .*: match is the same as entry 2's \(imei 861234567890123\)/);
  });

  it('takes a USB port and a power-cycle command per modem (a list of arguments or one line), and refuses a malformed port', () => {
    const file = parseModemsFile(`
modems:
  - { driver: hilink, management: "http://192.168.8.1", egress: eth1, usbPort: "1-1.4", powerCycle: [uhubctl, -l, "1-1", -p, "4", -a, cycle] }
  - { driver: modemmanager, modem: 0, egress: wwan0, usbPort: "2-3", powerCycle: "/usr/local/bin/relay cycle 3" }
`, 'modems.yaml');
    expect(file.modems.map((m) => [m.usbPort, m.powerCycle])).toEqual([
      ['1-1.4', ['uhubctl', '-l', '1-1', '-p', '4', '-a', 'cycle']], ['2-3', '/usr/local/bin/relay cycle 3'],
    ]);
    const message = refused(`
modems:
  - { driver: hilink, management: "http://192.168.8.1", egress: eth1, usbPort: "usb1; reboot" }
  - { driver: hilink, management: "http://192.168.18.1", egress: eth2, powerCycle: [] }
`);
    expect(message).toMatch(/modems\[0\] .*: usbPort must be the modem's USB port as Linux names it, e\.g\. 1-1\.4/);
    expect(message).toMatch(/modems\[1\] .*: powerCycle must be a command/);
  });

  it('refuses a file that is not YAML or JSON, or lists no modems', () => {
    expect(refused('modems: [\n  - driver', 'modems.yaml')).toMatch(/is not valid YAML/);
    expect(refused('{"modems": [', 'modems.json')).toMatch(/is not valid JSON/);
    expect(refused('modems: []')).toMatch(/modems: must list at least one modem/);
    expect(refused('hosts: []')).toMatch(/modems: must be a list of modems/);
  });

  it('resolves an interface name to its IPv4 address now, and refuses one that is missing or has none', () => {
    const interfaces = () => ({
      eth1: [{ address: 'fe80::1', family: 'IPv6' }, { address: '192.168.8.100', family: 'IPv4' }],
      wwan0: [{ address: 'fe80::2', family: 'IPv6' }],
    }) as unknown as ReturnType<typeof import('node:os').networkInterfaces>;
    expect(resolveEgress('eth1', interfaces)).toBe('192.168.8.100');
    expect(resolveEgress('10.64.12.7', interfaces)).toBe('10.64.12.7');
    expect(() => resolveEgress('wwan0', interfaces)).toThrow(/wwan0 has no IPv4 address \(is the modem connected\?\)/);
    expect(() => resolveEgress('eth9', interfaces)).toThrow(/eth9 does not exist on this host/);
    expect(resolveEgress('lo')).toBe('127.0.0.1');
  });
});
