import type { ProxyCounters } from './proxy-counters.js';
import { unmapIPv4 } from './target-policy.js';
import type { Logger } from './types.js';

// Proxy password guessing (issue 26, item 6): one keep-alive connection took 9,100 wrong guesses a second, SOCKS5
// likewise, and none was logged. The guard counts wrong credentials per client address and per login, over a window,
// and blocks: an address that failed too often may not try again for a while (whatever login, right password or
// not, so a block cannot be used to test a guess); a login that failed too often may not be tried from any address
// that itself failed recently. A customer whose client has the right password is never blocked by someone else's
// guessing at their login, since their address has no failures. One host agent shares one guard among its modems
// (logins are unique across ports, and a proxy replaced by a port change keeps the counts).

/** Wrong credentials are counted over this window, starting at the first of them. */
export const AUTH_FAILURE_WINDOW_MS = 10 * 60_000;
/**
 * Wrong credentials from one client address (an IPv6 client: its /64, which one subscriber holds) within the window
 * before the address is blocked. A customer fixing a misconfigured client, or a tool retrying a stale password on a
 * few connections, stays well under it; a guesser gets 30 tries per block instead of thousands a second.
 */
export const MAX_FAILURES_PER_ADDRESS = 30;
/**
 * Wrong passwords for one login, from all addresses together, within the window before the login is closed to
 * addresses that failed recently: guessing one customer's password from many addresses then costs an address per
 * guess. Twice the address limit, so that one address alone hits its own block first.
 */
export const MAX_FAILURES_PER_LOGIN = 60;
/** How long a block lasts: long enough that guessing is slow, short enough that a customer's own mistake passes. */
export const AUTH_BLOCK_MS = 15 * 60_000;
/**
 * Wrong credentials on one HTTP keep-alive connection before the proxy closes it: a client may re-ask with another
 * password (a browser after its prompt), but a guesser must reconnect and cannot stream guesses down one socket.
 */
export const MAX_FAILURES_PER_CONNECTION = 3;
/**
 * Addresses (and logins) followed at most. Past it, records whose window is over go first, then the oldest: memory
 * stays bounded however many addresses guess.
 */
export const MAX_TRACKED = 10_000;
/** Logins are at most 64 characters (the host protocol's schema): a longer guess is counted by its first 64. */
const MAX_LOGIN = 64;

interface FailureRecord {
  failures: number;
  windowStart: number;
  /** 0 when not blocked. */
  blockedUntil: number;
}

export class AuthGuard {
  private readonly addresses = new Map<string, FailureRecord>();
  private readonly logins = new Map<string, FailureRecord>();
  /** When allows() next forgets every ended record, so that the maps empty and the fast path returns. */
  private nextPrune = 0;

  constructor(private readonly counters: ProxyCounters, private readonly log: Logger,
    private readonly now: () => number = Date.now) {}

  /** Addresses and logins with failures on record. */
  get tracked(): { addresses: number; logins: number } {
    return { addresses: this.addresses.size, logins: this.logins.size };
  }

  /**
   * Whether credentials from this client may be checked at all. With no failure on record (the usual case) the
   * client's address is not even read, and nothing is allocated.
   */
  allows(client: { readonly remoteAddress: string | undefined }, login: string): boolean {
    if (this.addresses.size === 0) return true; // a login is only blocked for addresses with failures of their own
    const now = this.now();
    if (now >= this.nextPrune) {
      this.nextPrune = now + AUTH_FAILURE_WINDOW_MS;
      for (const key of this.addresses.keys()) this.current(this.addresses, key);
      for (const key of this.logins.keys()) this.current(this.logins, key);
    }
    const key = clientKey(client.remoteAddress);
    const byAddress = key === undefined ? undefined : this.current(this.addresses, key);
    if (byAddress === undefined) return true;
    if (byAddress.blockedUntil !== 0) return false;
    const byLogin = this.current(this.logins, loginKey(login));
    return byLogin === undefined || byLogin.blockedUntil === 0;
  }

  /** Counts wrong credentials; the failure that reaches a limit starts a block, logged once and counted. */
  failed(address: string | undefined, login: string): void {
    const now = this.now();
    const key = clientKey(address);
    if (key !== undefined && this.count(this.addresses, key, MAX_FAILURES_PER_ADDRESS, now)) {
      this.counters.authBlocks.address++;
      this.log.warn({ address: key, failures: MAX_FAILURES_PER_ADDRESS, minutes: AUTH_BLOCK_MS / 60_000 },
        'Proxy logins from this address blocked after repeated wrong passwords');
    }
    if (this.count(this.logins, loginKey(login), MAX_FAILURES_PER_LOGIN, now)) {
      this.counters.authBlocks.login++;
      this.log.warn({ login: loginKey(login), failures: MAX_FAILURES_PER_LOGIN, minutes: AUTH_BLOCK_MS / 60_000 },
        'Proxy login blocked for addresses that failed it, after repeated wrong passwords');
    }
  }

  /** The record of key while its window or block lasts; an ended one is forgotten. */
  private current(map: Map<string, FailureRecord>, key: string): FailureRecord | undefined {
    const record = map.get(key);
    if (record === undefined) return undefined;
    const now = this.now();
    if (record.blockedUntil !== 0 ? record.blockedUntil <= now : now - record.windowStart >= AUTH_FAILURE_WINDOW_MS) {
      map.delete(key);
      return undefined;
    }
    return record;
  }

  /** One more failure for key: true when it starts a block. */
  private count(map: Map<string, FailureRecord>, key: string, limit: number, now: number): boolean {
    let record = this.current(map, key);
    if (record === undefined) {
      if (map.size >= MAX_TRACKED) this.makeRoom(map);
      record = { failures: 0, windowStart: now, blockedUntil: 0 };
      map.set(key, record);
    }
    if (record.blockedUntil !== 0) return false;
    record.failures++;
    if (record.failures < limit) return false;
    record.blockedUntil = now + AUTH_BLOCK_MS;
    return true;
  }

  private makeRoom(map: Map<string, FailureRecord>): void {
    for (const key of map.keys()) this.current(map, key);
    // Still full: the oldest go (a Map iterates in insertion order).
    for (const key of map.keys()) {
      if (map.size < MAX_TRACKED) break;
      map.delete(key);
    }
  }
}

function loginKey(login: string): string {
  return login.length > MAX_LOGIN ? login.slice(0, MAX_LOGIN) : login;
}

/** What failures are counted by: an IPv4 address (IPv4-mapped too) as it is, an IPv6 address by its /64. */
export function clientKey(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const v4 = unmapIPv4(address);
  if (v4 !== null) return v4;
  if (!address.includes(':')) return address;
  const zone = address.indexOf('%');
  const ip = zone < 0 ? address : address.slice(0, zone);
  const gap = ip.indexOf('::');
  let groups: string[];
  if (gap < 0) {
    groups = ip.split(':');
  } else {
    const head = gap === 0 ? [] : ip.slice(0, gap).split(':');
    const tail = ip.slice(gap + 2) === '' ? [] : ip.slice(gap + 2).split(':');
    groups = [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  }
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}
