import { describe, expect, it } from 'vitest';
import { parseModemsFile } from '../../modems/modems-file.js';
import { IpCommandError, type IpRunner } from './ip-command.js';
import { modemRouting } from './modem-route.js';
import { applyModemRouting, planModemRouting, type IpRoute, type IpRule } from './policy-routing.js';

// What the policy routing runs for what `ip -j` lists (the kernel's side: policy-routing.netns.test.ts).

const WANT = { table: 101, priority: 1001, source: '192.168.8.100', dev: 'eth1', gateway: '192.168.8.1' };
const MAIN: IpRule[] = [{ priority: 0, src: 'all', table: 'local' }, { priority: 32766, src: 'all', table: 'main' }];
const DONE_RULE: IpRule = { priority: 1001, src: '192.168.8.100', table: '101' };
const DONE_ROUTES: IpRoute[] = [
  { dst: 'default', gateway: '192.168.8.1', dev: 'eth1' },
  { type: 'blackhole', dst: 'default', metric: 4_000_000_000 },
];

describe('planModemRouting', () => {
  it('on a bare host: the blackhole, the default route through the modem, then the rule', () => {
    expect(planModemRouting(WANT, MAIN, [])).toEqual([
      ['route', 'add', 'blackhole', 'default', 'metric', '4000000000', 'table', '101'],
      ['route', 'replace', 'default', 'via', '192.168.8.1', 'dev', 'eth1', 'table', '101'],
      ['rule', 'add', 'from', '192.168.8.100', 'lookup', '101', 'priority', '1001'],
    ]);
  });

  it('nothing when all is in place', () => {
    expect(planModemRouting(WANT, [...MAIN, DONE_RULE], DONE_ROUTES)).toEqual([]);
  });

  it('a new source address (a reconnect): the new rule goes in before the stale one goes', () => {
    expect(planModemRouting({ ...WANT, source: '192.168.8.101' }, [...MAIN, DONE_RULE], DONE_ROUTES)).toEqual([
      ['rule', 'add', 'from', '192.168.8.101', 'lookup', '101', 'priority', '1001'],
      ['rule', 'del', 'priority', '1001', 'from', '192.168.8.100', 'table', '101'],
    ]);
  });

  it('a route the kernel dropped with its link is put back; a point-to-point modem has no gateway', () => {
    expect(planModemRouting(WANT, [...MAIN, DONE_RULE], [DONE_ROUTES[1]!])).toEqual([
      ['route', 'replace', 'default', 'via', '192.168.8.1', 'dev', 'eth1', 'table', '101'],
    ]);
    const wwan = { table: 102, priority: 1002, source: '10.64.12.7', dev: 'wwan0' };
    expect(planModemRouting(wwan, MAIN, [{ type: 'blackhole', dst: 'default', metric: 4_000_000_000 }])).toEqual([
      ['route', 'replace', 'default', 'dev', 'wwan0', 'table', '102'],
      ['rule', 'add', 'from', '10.64.12.7', 'lookup', '102', 'priority', '1002'],
    ]);
  });

  it('another rule at the modem\'s priority (another table, a subnet) is replaced; one with other selectors is left alone', () => {
    const stale: IpRule[] = [
      { priority: 1001, src: '192.168.8.100', table: '7' },
      { priority: 1001, src: '10.0.0.0', srclen: 8, table: '101' },
      { priority: 1001, src: '192.168.8.100', table: '101', fwmark: '0x1' },
    ];
    expect(planModemRouting(WANT, [...MAIN, ...stale], DONE_ROUTES)).toEqual([
      ['rule', 'add', 'from', '192.168.8.100', 'lookup', '101', 'priority', '1001'],
      ['rule', 'del', 'priority', '1001', 'from', '192.168.8.100', 'table', '7'],
      ['rule', 'del', 'priority', '1001', 'from', '10.0.0.0/8', 'table', '101'],
    ]);
  });
});

describe('applyModemRouting', () => {
  it('reads with ip -j, runs every command even when one fails (the link is down), then throws the first failure naming it', async () => {
    const ran: string[] = [];
    const run: IpRunner = async (args) => {
      ran.push(args.join(' '));
      if (args[0] === '-j' && args.includes('rule')) return JSON.stringify(MAIN);
      if (args[0] === '-j') throw new IpCommandError(`ip ${args.join(' ')}`, 'Error: ipv4: FIB table does not exist.\nDump terminated\n');
      if (args[1] === 'replace') throw new IpCommandError(`ip ${args.join(' ')}`, 'Error: Nexthop has invalid gateway.\n');
      return '';
    };
    await expect(applyModemRouting(WANT, run)).rejects.toThrow('`ip route replace default via 192.168.8.1 dev eth1 table 101` failed: Error: Nexthop has invalid gateway.');
    expect(ran.slice(2)).toEqual([
      'route add blackhole default metric 4000000000 table 101',
      'route replace default via 192.168.8.1 dev eth1 table 101',
      'rule add from 192.168.8.100 lookup 101 priority 1001',
    ]);
  });
});

describe('modemRouting', () => {
  const file = parseModemsFile(JSON.stringify({ modems: [
    { driver: 'hilink', management: 'http://192.168.8.1', egress: 'eth1' },
    { driver: 'modemmanager', modem: 0, egress: 'wwan0' },
    { driver: 'hilink', management: 'http://192.168.18.1', egress: '192.168.18.100', gateway: '192.168.18.254' },
    { driver: 'simulated', imei: '350000000000001' },
  ] }), 'modems.json');
  const interfaces = () => ({
    eth1: [{ address: '192.168.8.100', family: 'IPv4' }],
    wwan0: [{ address: '10.64.12.7', family: 'IPv4' }],
    eth2: [{ address: '192.168.18.100', family: 'IPv4' }],
  }) as unknown as ReturnType<typeof import('node:os').networkInterfaces>;

  it('the table and priority by the entry\'s place; the interface\'s address; a HiLink\'s gateway is its management host unless given', () => {
    expect(file.modems.map((entry, i) => modemRouting(entry, i, 101, interfaces))).toEqual([
      { table: 101, priority: 1001, source: '192.168.8.100', dev: 'eth1', gateway: '192.168.8.1' },
      { table: 102, priority: 1002, source: '10.64.12.7', dev: 'wwan0' },
      { table: 103, priority: 1003, source: '192.168.18.100', dev: 'eth2', gateway: '192.168.18.254' },
      null,
    ]);
  });

  it('an interface without an address is an error, not a guess', () => {
    expect(() => modemRouting(file.modems[1]!, 1, 101, () => ({ wwan0: [] }) as never)).toThrow('the egress interface wwan0 has no IPv4 address');
  });
});
