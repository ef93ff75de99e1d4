import { hash, timingSafeEqual } from 'node:crypto';
import { BlockList } from 'node:net';
import { parseCidr, unmapIPv4 } from './target-policy.js';
import type { PortAccess } from './types.js';

// One modem's access table, rebuilt from the server's PortAccess list on every change. A shared modem serves several
// customer ports on the same two listening ports: the login (unique per modem) or the client's whitelisted address
// says which port a connection belongs to. The server keeps whitelists of one modem apart, but the agent does not rely
// on it (issue 26): an address on the whitelists of two ports names neither, and is refused rather than guessed.

export interface PortEntry {
  readonly access: PortAccess;
  /** Date.parse(expiresAt), parsed once. */
  readonly expiresAtMs: number;
  /** sha256 of the password: compared in constant time whatever the offered password's length. */
  readonly passwordHash: Buffer;
  /** The password's UTF-8 zero-padded to PASSWORD_SLOT bytes (null: it may not fit; its hash is compared instead). */
  readonly passwordSlot: Buffer | null;
  /** Its length in UTF-8 (the padding hides "pw" against "pw\0"; the lengths tell them apart). */
  readonly passwordBytes: number;
  readonly whitelist: BlockList | null;
}

/**
 * Whether a port may carry traffic at `now`: active, not past its expiry by the agent's own clock, and not blocked
 * for its monthly quota until a moment still to come (issue 18: the block lifts at the month's end by this clock).
 */
export function isPortOpen(entry: PortEntry, now: number): boolean {
  if (entry.access.state !== 'active' || entry.expiresAtMs <= now) return false;
  const quota = entry.access.limits?.quota;
  return quota?.state !== 'blocked' || Date.parse(quota.until) <= now;
}

/** Why a port that isOpen refuses is closed, for the metrics: its state, its expiry, or its quota. */
export function closedReason(entry: PortEntry, now: number): 'port_inactive' | 'port_expired' | 'quota_blocked' {
  if (entry.access.state !== 'active') return 'port_inactive';
  return entry.expiresAtMs <= now ? 'port_expired' : 'quota_blocked';
}

/** forClient's answer for an address on the whitelists of more than one port of this modem. */
export const AMBIGUOUS = 'ambiguous';

/** How many client addresses forClient remembers. */
const CLIENT_CACHE_SIZE = 1024;

// One-shot crypto.hash: no Hash object per offered password (createHash().update().digest() cost about twice as much).
function sha256(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

// An offered password is compared in a fixed-size slot, zero-padded, in constant time whatever its length, as its
// sha256 was before, which was 2.4 % of a new CONNECT tunnel's CPU in a V8 profile (bench/BENCHMARKS.md, 2026-12-07
// dev). Port passwords are at most 64 characters (the host protocol), which always fit.
const PASSWORD_SLOT = 256;
/** A string of at most this many UTF-16 units is at most PASSWORD_SLOT bytes in UTF-8 (3 bytes a unit at most). */
const SLOT_CHARS = Math.floor(PASSWORD_SLOT / 3);
/** The offered password's slot, reused: filled and compared within one call. */
const offered = Buffer.alloc(PASSWORD_SLOT);

function passwordSlot(password: string): Buffer | null {
  if (password.length > SLOT_CHARS) return null;
  const slot = Buffer.alloc(PASSWORD_SLOT);
  slot.write(password, 'utf8');
  return slot;
}

/** An address as BlockList.check takes it: IPv4-mapped IPv6 unmapped. */
function addressType(address: string): [string, 'ipv4' | 'ipv6'] {
  const v4 = unmapIPv4(address);
  const ip = v4 ?? address;
  return [ip, v4 !== null || !ip.includes(':') ? 'ipv4' : 'ipv6'];
}

export class PortAccessTable {
  readonly entries: readonly PortEntry[];
  /** Whitelist entries that are not addresses or ranges (skipped, so one bad entry does not take the modem down). */
  readonly invalidWhitelistEntries: string[] = [];
  /** Pairs of port ids whose whitelists share addresses (those addresses are refused without credentials). */
  readonly overlappingWhitelists: [string, string][] = [];
  private readonly byId = new Map<string, PortEntry>();
  private readonly byLoginMap = new Map<string, PortEntry>();
  private readonly whitelisted: PortEntry[] = [];
  /** forClient's recent answers by client address (null: on no whitelist). */
  private readonly clients = new Map<string, PortEntry | null | typeof AMBIGUOUS>();

  constructor(ports: readonly PortAccess[]) {
    const entries: PortEntry[] = [];
    /** Each whitelisted entry's networks, as an address in each and its family (for the overlap check). */
    const networks = new Map<PortEntry, [string, 'ipv4' | 'ipv6'][]>();
    for (const access of ports) {
      let whitelist: BlockList | null = null;
      const nets: [string, 'ipv4' | 'ipv6'][] = [];
      for (const item of access.whitelist) {
        try {
          const [net, prefix, type] = parseCidr(item);
          whitelist ??= new BlockList();
          whitelist.addSubnet(net, prefix, type);
          nets.push([net, type]);
        } catch {
          this.invalidWhitelistEntries.push(item);
        }
      }
      const expiresAtMs = Date.parse(access.expiresAt);
      const entry: PortEntry = {
        access,
        // An unparsable expiry counts as expired: refusing is the safe side.
        expiresAtMs: Number.isNaN(expiresAtMs) ? 0 : expiresAtMs,
        passwordHash: sha256(access.password),
        passwordSlot: passwordSlot(access.password),
        passwordBytes: Buffer.byteLength(access.password),
        whitelist,
      };
      entries.push(entry);
      this.byId.set(access.id, entry);
      this.byLoginMap.set(access.login, entry);
      if (whitelist) {
        this.whitelisted.push(entry);
        networks.set(entry, nets);
      }
    }
    this.entries = entries;
    // Two CIDR ranges are nested or apart, so two whitelists overlap when one holds an address of a range of the other.
    const holds = (a: PortEntry, b: PortEntry) => networks.get(b)!.some(([net, type]) => a.whitelist!.check(net, type));
    for (let i = 0; i < this.whitelisted.length; i++) {
      for (let j = i + 1; j < this.whitelisted.length; j++) {
        const [a, b] = [this.whitelisted[i]!, this.whitelisted[j]!];
        if (holds(a, b) || holds(b, a)) this.overlappingWhitelists.push([a.access.id, b.access.id]);
      }
    }
  }

  get(portId: string): PortEntry | undefined {
    return this.byId.get(portId);
  }

  byLogin(login: string): PortEntry | undefined {
    return this.byLoginMap.get(login);
  }

  /** The port whose login and password these are, or undefined (unknown login and wrong password alike). */
  authenticate(login: string, password: string): PortEntry | undefined {
    const entry = this.byLoginMap.get(login);
    // Compare even for an unknown login (with itself), so timing does not tell which logins exist. Which way is
    // compared depends only on the offered password's length and on a stored password too long for any real port.
    if (password.length <= SLOT_CHARS && (entry === undefined || entry.passwordSlot !== null)) {
      const n = offered.write(password, 'utf8');
      offered.fill(0, n);
      const same = timingSafeEqual(offered, entry ? entry.passwordSlot! : offered);
      return same && entry !== undefined && n === entry.passwordBytes ? entry : undefined;
    }
    const digest = sha256(password);
    const ok = timingSafeEqual(digest, entry ? entry.passwordHash : digest) && entry !== undefined;
    return ok ? entry : undefined;
  }

  /**
   * The one port whose whitelist holds this client address (IPv4, IPv6 or IPv4-mapped IPv6); AMBIGUOUS when the
   * whitelists of several ports hold it (none of them may have its connections); undefined when none does.
   */
  forClient(address: string | undefined): PortEntry | typeof AMBIGUOUS | undefined {
    if (address === undefined || this.whitelisted.length === 0) return undefined;
    // A whitelisted client opens connection after connection from the same address, and each BlockList.check builds
    // a SocketAddress. The answer depends only on the address and this table, which is replaced (never changed) when
    // the rules change, so it is remembered here, bounded.
    let found = this.clients.get(address);
    if (found === undefined) {
      if (this.clients.size >= CLIENT_CACHE_SIZE) this.clients.clear();
      found = this.lookUpClient(address);
      this.clients.set(address, found);
    }
    return found ?? undefined;
  }

  /** Whether this port's own whitelist holds the client address (a connection to the port's own listener). */
  whitelists(entry: PortEntry, address: string | undefined): boolean {
    if (address === undefined || entry.whitelist === null) return false;
    const [ip, type] = addressType(address);
    return entry.whitelist.check(ip, type);
  }

  private lookUpClient(address: string): PortEntry | null | typeof AMBIGUOUS {
    const [ip, type] = addressType(address);
    let found: PortEntry | null = null;
    for (const entry of this.whitelisted) {
      if (!entry.whitelist!.check(ip, type)) continue;
      if (found !== null) return AMBIGUOUS;
      found = entry;
    }
    return found;
  }
}
