import { EventEmitter } from 'node:events';
import type { DatabaseHandle } from '../db/database.js';
import { TOPICS, topicNamed, topicOf, type TopicInput, type TopicPayload, type TopicRef } from './bus-topics.js';
import { BUS_CHANNEL, notifyInstances } from './bus.repository.js';

/** The local resync event (TOPICS.busResync); kept under its old name for code written before TOPICS. */
export const BUS_RESYNC = TOPICS.busResync;

/** What travels through NOTIFY: the sender, the topic's name, the payload. */
export interface BusMessage { origin: string; topic: string; data: unknown }

interface BusLog { warn(obj: unknown, msg: string): void }

/**
 * Events between parts of the server and between instances. Locally an EventEmitter; on PostgreSQL every
 * message also travels through NOTIFY so that other instances behind the same database hear it (decision 012).
 * Topics and their payloads are declared in bus-topics.ts: a publish is checked against its schema, and so is a
 * message from another instance before any handler here sees it.
 */
export class Bus {
  private readonly local = new EventEmitter();
  private readonly origin = Math.random().toString(36).slice(2);
  private unlisten: (() => Promise<void>) | undefined;
  /** Work that handlers started and returned as a promise, so `idle()` can wait for it (tests, graceful stop). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly database: DatabaseHandle, private readonly log?: BusLog) {
    this.local.setMaxListeners(0);
  }

  async start(): Promise<void> {
    if (this.database.kind !== 'postgres') return;
    this.unlisten = await this.database.listen(BUS_CHANNEL, (payload) => this.heard(payload), () => this.local.emit(TOPICS.busResync.name, {}));
  }

  /** A message from another instance: a declared topic with a payload its schema accepts, or it is dropped. */
  private heard(payload: string): void {
    let message: BusMessage;
    try { message = JSON.parse(payload) as BusMessage; } catch { return; }
    if (message.origin === this.origin) return;
    const topic = topicNamed(message.topic);
    const parsed = topic && !topic.local ? topic.payload.safeParse(message.data) : undefined;
    if (!parsed?.success) {
      this.log?.warn({ topic: String(message.topic).slice(0, 100), issues: parsed?.error.issues.slice(0, 3) }, 'bus: a message from another instance was dropped (unknown topic or payload)');
      return;
    }
    this.local.emit(message.topic, parsed.data);
  }

  /** Tells this instance's handlers and, on PostgreSQL, every other instance. Rejects a payload its schema refuses. */
  async publish<R extends TopicRef>(ref: R, data: TopicInput<R>): Promise<void> {
    const topic = topicOf(ref);
    const checked = topic.payload.parse(data);
    this.local.emit(topic.name, checked);
    if (this.database.kind !== 'postgres' || topic.local) return;
    const message: BusMessage = { origin: this.origin, topic: topic.name, data: checked };
    await notifyInstances(this.database.db, encodeBusMessage(message));
  }

  /** A handler that returns a promise is tracked until it settles (its rejection is its own to handle). */
  on<R extends TopicRef>(ref: R, handler: (data: TopicPayload<R>) => unknown): () => void {
    const name = topicOf(ref).name;
    const tracked = (data: TopicPayload<R>): void => {
      const result = handler(data);
      if (!(result instanceof Promise)) return;
      const settled = result.then(() => undefined, () => undefined).finally(() => this.pending.delete(settled));
      this.pending.add(settled);
    };
    this.local.on(name, tracked);
    return () => this.local.off(name, tracked);
  }

  /** Resolves once every tracked handler's work has settled, including work those handlers started meanwhile. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending);
  }

  async stop(): Promise<void> { await this.unlisten?.(); }
}

/** The NOTIFY payload of a message (bigints as strings): also for a process without a Bus of its own. */
export function encodeBusMessage(message: BusMessage): string {
  return JSON.stringify(message, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}
