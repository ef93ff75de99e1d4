import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';

const CHANNEL = 'cellport_bus';
/**
 * Emitted locally when this instance's LISTEN connection came back after a loss: messages from other instances in
 * the gap were missed, so whoever caches on the strength of the bus (sessions, API keys, settings) starts afresh.
 */
export const BUS_RESYNC = 'bus:resync';

export interface BusMessage { topic: string; data: unknown }

/**
 * Events between parts of the server and between instances. Locally an EventEmitter; on PostgreSQL every
 * message also travels through NOTIFY so that other instances behind the same database hear it.
 */
export class Bus {
  private readonly local = new EventEmitter();
  private readonly origin = Math.random().toString(36).slice(2);
  private unlisten: (() => Promise<void>) | undefined;
  /** Work that handlers started and returned as a promise, so `idle()` can wait for it (tests, graceful stop). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly database: DatabaseHandle) {
    this.local.setMaxListeners(0);
  }

  async start(): Promise<void> {
    if (this.database.kind !== 'postgres') return;
    this.unlisten = await this.database.listen(CHANNEL, (payload) => {
      try {
        const { origin, topic, data } = JSON.parse(payload) as BusMessage & { origin: string };
        if (origin !== this.origin) this.local.emit(topic, data);
      } catch { /* a foreign payload on our channel is ignored */ }
    }, () => this.local.emit(BUS_RESYNC, {}));
  }

  async publish(topic: string, data: unknown): Promise<void> {
    this.local.emit(topic, data);
    if (this.database.kind !== 'postgres') return;
    const payload = JSON.stringify({ origin: this.origin, topic, data }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(this.database.db);
  }

  /** A handler that returns a promise is tracked until it settles (its rejection is its own to handle). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each topic has its own payload shape
  on(topic: string, handler: (data: any) => unknown): () => void {
    const tracked = (data: unknown): void => {
      const result = handler(data);
      if (!(result instanceof Promise)) return;
      const settled = result.then(() => undefined, () => undefined).finally(() => this.pending.delete(settled));
      this.pending.add(settled);
    };
    this.local.on(topic, tracked);
    return () => this.local.off(topic, tracked);
  }

  /** Resolves once every tracked handler's work has settled, including work those handlers started meanwhile. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending);
  }

  async stop(): Promise<void> { await this.unlisten?.(); }
}
