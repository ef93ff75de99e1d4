import { LANGUAGES, type Language } from '@cellport/shared';
import { portsResponseSchema, type Port } from '@cellport/shared/schemas/catalog';
import { PORTS_CHANNEL, type ChangeAnnouncements } from '../../lib/ports-channel.js';

interface Entry {
  json: string;
  imeis: Set<string>;
  /** Epoch ms: the safety TTL, or the first expiry among its active ports, whichever comes first. */
  validUntil: number;
}

/** A load from the database in progress; a change heard meanwhile makes its result unfit to keep. */
interface Load { userId: string; stale: boolean }

export interface PortsListCacheOptions {
  /** Bound on the JSON kept, in characters (≈ bytes); the least recently used lists go first. */
  maxChars?: number;
  /** Longest an entry is served, a safety net under the change notifications. */
  ttlMs?: number;
}

/**
 * Customers' port lists (GET /api/v1/modems) as ready JSON, per customer and language, so a repeated listing is
 * answered from memory. Every change the list shows is announced by database triggers on commit, to every
 * instance (docs/decisions/015-ports-list-cache.md); the customer's own writes on this instance also drop their lists
 * at once, so a customer always reads their own writes. A list is also dropped when one of its ports reaches its
 * expiry (the status shown follows the clock) and after the safety TTL.
 */
export class PortsListCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loads = new Set<Load>();
  private chars = 0;
  private readonly maxChars: number;
  private readonly ttlMs: number;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly database: ChangeAnnouncements, options: PortsListCacheOptions = {}) {
    this.maxChars = options.maxChars ?? 64_000_000;
    this.ttlMs = options.ttlMs ?? 60_000;
  }

  async start(): Promise<void> {
    // A lost LISTEN connection missed changes: everything kept is dropped when it is back.
    this.unlisten = await this.database.listen(PORTS_CHANNEL, (payload) => this.heard(payload), () => this.clear());
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    // Deaf from here on: nothing new is kept.
    this.unlisten = undefined;
    await unlisten?.();
    this.clear();
  }

  /** The customer's list as JSON: from memory when kept and fresh, else loaded, checked against the schema and kept. */
  async json(userId: string, lng: Language, load: () => Promise<Port[]>): Promise<string> {
    const key = `${userId}:${lng}`;
    const kept = this.entries.get(key);
    if (kept) {
      if (Date.now() < kept.validUntil) {
        // Most recently used last, so eviction takes the oldest first.
        this.entries.delete(key);
        this.entries.set(key, kept);
        return kept.json;
      }
      this.drop(key);
    }
    const pending: Load = { userId, stale: false };
    this.loads.add(pending);
    try {
      const ports = portsResponseSchema.parse(await load());
      const json = JSON.stringify(ports);
      if (!pending.stale && this.unlisten) this.keep(key, json, ports);
      return json;
    } finally {
      this.loads.delete(pending);
    }
  }

  /** Drops a customer's lists (their own write on this instance, or an announced change). */
  invalidate(userId: string): void {
    for (const lng of LANGUAGES) this.drop(`${userId}:${lng}`);
    for (const load of this.loads) if (load.userId === userId) load.stale = true;
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
    for (const load of this.loads) load.stale = true;
  }

  /** How many lists are kept (tests and diagnostics). */
  get size(): number { return this.entries.size; }

  private heard(payload: string): void {
    if (payload.startsWith('u:')) {
      for (const userId of payload.slice(2).split(',')) this.invalidate(userId);
    } else if (payload.startsWith('m:')) {
      const imei = payload.slice(2);
      for (const [key, entry] of this.entries) if (entry.imeis.has(imei)) this.drop(key);
      // A load in flight may have read the modem before the change: not worth tracking which one did.
      for (const load of this.loads) load.stale = true;
    } else {
      this.clear();
    }
  }

  private keep(key: string, json: string, ports: Port[]): void {
    let validUntil = Date.now() + this.ttlMs;
    for (const port of ports) {
      if (port.status === 'active') validUntil = Math.min(validUntil, Date.parse(port.expiresAt));
    }
    const imeis = new Set<string>();
    for (const port of ports) imeis.add(port.IMEI);
    this.drop(key);
    this.entries.set(key, { json, imeis, validUntil });
    this.chars += json.length;
    for (const [oldest] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.chars -= entry.json.length;
  }
}
