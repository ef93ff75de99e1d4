import { describe, expect, it } from 'vitest';
import { isPortOpen, PortAccessTable } from './port-access.js';
import type { PortAccess } from './types.js';

const future = new Date(Date.now() + 3_600_000).toISOString();

function port(id: string, extra: Partial<PortAccess> = {}): PortAccess {
  return { id, login: `user-${id}`, password: `pw-${id}`, whitelist: [], state: 'active', expiresAt: future, ...extra };
}

describe('port access table', () => {
  const table = new PortAccessTable([
    port('a', { whitelist: ['203.0.113.7', '198.51.100.0/24'] }),
    port('b', { whitelist: ['2001:db8::/64', '2001:db8:1::5'] }),
    port('c', { whitelist: ['not-an-ip', '10.1.0.0/99'] }),
  ]);

  it('finds a port by login and password, and nothing for a wrong password or an unknown login', () => {
    expect(table.authenticate('user-a', 'pw-a')?.access.id).toBe('a');
    expect(table.authenticate('user-b', 'pw-b')?.access.id).toBe('b');
    expect(table.authenticate('user-a', 'pw-b')).toBeUndefined();
    expect(table.authenticate('user-a', 'pw-a-longer')).toBeUndefined();
    expect(table.authenticate('user-a', '')).toBeUndefined();
    expect(table.authenticate('nobody', 'pw-a')).toBeUndefined();
  });

  it('matches client addresses against whitelists: IPv4, CIDR, IPv6, IPv6 CIDR and IPv4-mapped IPv6', () => {
    for (let round = 0; round < 2; round++) { // the second round is answered from the table's memory
      expect(table.forClient('203.0.113.7')?.access.id).toBe('a');
      expect(table.forClient('203.0.113.8')).toBeUndefined();
      expect(table.forClient('198.51.100.200')?.access.id).toBe('a');
      expect(table.forClient('::ffff:198.51.100.1')?.access.id).toBe('a');
      expect(table.forClient('::ffff:203.0.113.7')?.access.id).toBe('a');
      expect(table.forClient('2001:db8::abcd')?.access.id).toBe('b');
      expect(table.forClient('2001:db8:1::5')?.access.id).toBe('b');
      expect(table.forClient('2001:db8:1::6')).toBeUndefined();
      expect(table.forClient(undefined)).toBeUndefined();
    }
    expect(table.invalidWhitelistEntries).toEqual(['not-an-ip', '10.1.0.0/99']);
  });

  it('a port carries traffic only while active and before expiresAt', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const open = new PortAccessTable([
      port('x', { expiresAt: '2030-01-01T00:00:01Z' }),
      port('y', { expiresAt: '2030-01-01T00:00:00Z' }),
      port('z', { expiresAt: '2030-02-01T00:00:00Z', state: 'suspended' }),
      port('w', { expiresAt: '2030-02-01T00:00:00Z', state: 'expired' }),
      port('v', { expiresAt: '2030-02-01T00:00:00Z', state: 'deactivated' }),
    ]);
    expect(open.entries.map((e) => isPortOpen(e, now))).toEqual([true, false, false, false, false]);
  });
});
