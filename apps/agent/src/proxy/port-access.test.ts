import { describe, expect, it } from 'vitest';
import { AMBIGUOUS, isPortOpen, PortAccessTable } from './port-access.js';
import type { PortEntry } from './port-access.js';
import type { PortAccess } from './types.js';

const future = new Date(Date.now() + 3_600_000).toISOString();

function port(id: string, extra: Partial<PortAccess> = {}): PortAccess {
  return { id, login: `user-${id}`, password: `pw-${id}`, whitelist: [], state: 'active', expiresAt: future, ...extra };
}

/** The port id forClient names, AMBIGUOUS, or undefined. */
function idFor(table: PortAccessTable, address: string | undefined): string | undefined {
  const found: PortEntry | typeof AMBIGUOUS | undefined = table.forClient(address);
  return found === AMBIGUOUS ? AMBIGUOUS : found?.access.id;
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

  it('compares passwords exactly: padding, lengths, non-ASCII and passwords too long for the slot', () => {
    const long = 'x'.repeat(200);
    const odd = new PortAccessTable([
      port('n', { password: 'pw' }), port('u', { password: 'пароль-密码-🔑' }), port('l', { password: long }),
      port('z', { password: 'pw\u0000' }),
    ]);
    expect(odd.authenticate('user-n', 'pw')?.access.id).toBe('n');
    expect(odd.authenticate('user-n', 'pw\u0000')).toBeUndefined(); // the slot's padding is no password byte
    expect(odd.authenticate('user-z', 'pw\u0000')?.access.id).toBe('z');
    expect(odd.authenticate('user-z', 'pw')).toBeUndefined();
    expect(odd.authenticate('user-u', 'пароль-密码-🔑')?.access.id).toBe('u');
    expect(odd.authenticate('user-u', 'пароль-密码-🔒')).toBeUndefined();
    expect(odd.authenticate('user-l', long)?.access.id).toBe('l');
    expect(odd.authenticate('user-l', long.slice(1))).toBeUndefined();
    expect(odd.authenticate('user-n', long)).toBeUndefined();
    expect(odd.authenticate('user-n', 'pw'.padEnd(300, '\u0000'))).toBeUndefined();
    // After a longer offer, the reused slot holds nothing of it.
    expect(odd.authenticate('user-n', 'pw')?.access.id).toBe('n');
  });

  it('matches client addresses against whitelists: IPv4, CIDR, IPv6, IPv6 CIDR and IPv4-mapped IPv6', () => {
    for (let round = 0; round < 2; round++) { // the second round is answered from the table's memory
      expect(idFor(table, '203.0.113.7')).toBe('a');
      expect(idFor(table, '203.0.113.8')).toBeUndefined();
      expect(idFor(table, '198.51.100.200')).toBe('a');
      expect(idFor(table, '::ffff:198.51.100.1')).toBe('a');
      expect(idFor(table, '::ffff:203.0.113.7')).toBe('a');
      expect(idFor(table, '2001:db8::abcd')).toBe('b');
      expect(idFor(table, '2001:db8:1::5')).toBe('b');
      expect(idFor(table, '2001:db8:1::6')).toBeUndefined();
      expect(idFor(table, undefined)).toBeUndefined();
    }
    expect(table.invalidWhitelistEntries).toEqual(['not-an-ip', '10.1.0.0/99']);
  });

  it('an address on the whitelists of two ports of one modem names neither, and the overlap is reported', () => {
    const shared = new PortAccessTable([
      port('first', { whitelist: ['192.0.2.0/24'] }),
      port('second', { whitelist: ['192.0.2.80', '2001:db8:5::/48'] }),
      port('third', { whitelist: ['2001:db8::/32'] }),
      port('apart', { whitelist: ['198.51.100.7'] }),
    ]);
    for (let round = 0; round < 2; round++) {
      expect(idFor(shared, '192.0.2.80')).toBe(AMBIGUOUS);
      expect(idFor(shared, '::ffff:192.0.2.80')).toBe(AMBIGUOUS);
      expect(idFor(shared, '2001:db8:5::1')).toBe(AMBIGUOUS);
      expect(idFor(shared, '192.0.2.81')).toBe('first'); // only its own whitelist holds it
      expect(idFor(shared, '2001:db8:6::1')).toBe('third');
      expect(idFor(shared, '198.51.100.7')).toBe('apart');
    }
    expect(shared.overlappingWhitelists).toEqual([['first', 'second'], ['second', 'third']]);
    expect(table.overlappingWhitelists).toEqual([]);
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
