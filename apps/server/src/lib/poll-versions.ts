import type { RealtimeEventName } from '@cellport/shared/schemas/realtime';
import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, DatabaseHandle, Tx } from '../db/database.js';
import { bumpAndNotify, committedPollVersion, keptPollVersionUpsert, notifyBumped, POLL_CHANNEL, upsertPollVersion } from './poll-versions.repository.js';

/** Polled resources whose per-customer version lives in memory (docs/decisions/012-realtime.md). */
export type PollKind = 'notifications' | 'pendingCrypto';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; an event that does not fit is left out. */
const PAYLOAD_MAX = 7500;

/** What every instance hears after the transaction that bumped a version commits. */
export interface PollChange {
  kind: PollKind;
  userId: string;
  version: number;
  /** An optional realtime event to forward to the customer's sockets ('notification', 'pending_crypto_payment'…). */
  event?: { name: RealtimeEventName; data: unknown };
  /** A notification id waiting to be e-mailed. */
  mail?: string;
  /** A notification id whose e-mail was written with it, waiting to be handed to SMTP (integrations/mail/mailer.ts). */
  mailed?: string;
}

/**
 * Bumps a customer's version of a polled resource inside the caller's transaction and announces it with NOTIFY
 * on the same transaction. PostgreSQL delivers a NOTIFY only when its transaction commits (and drops it on
 * rollback), so no instance can see the new version before the data it stands for is visible — an unchanged
 * poll answered from memory is never stale for longer than the commit takes to reach the listener.
 */
export async function bumpPollVersion(
  tx: Tx | Database, kind: PollKind, userId: string, extra: Pick<PollChange, 'event' | 'mail' | 'mailed'> = {},
): Promise<number> {
  return bumpAndNotify(tx, kind, userId, pollPayload(kind, userId, extra));
}

/**
 * The two halves of a bump, for a caller that writes its change in the same statement (one round trip, not two):
 * `upsert(tx)` is the CTE to name 'bumped'; `notify` selects from it and sends the NOTIFY with the new version, which
 * the database sets into the payload.
 */
export function pollBump(kind: PollKind, userId: string, extra: Pick<PollChange, 'event' | 'mail' | 'mailed'> = {}) {
  const payload = pollPayload(kind, userId, extra);
  return {
    upsert: (db: Tx | Database) => upsertPollVersion(db, kind, userId),
    /** The upsert as a part of a bigger statement, its text kept. */
    upsertPart: (db: Tx | Database) => keptPollVersionUpsert(db, kind, userId),
    notify: notifyBumped(payload),
  };
}

/** The NOTIFY's payload, its version 0 until the database sets the new one; an event too large is left out. */
function pollPayload(kind: PollKind, userId: string, extra: Pick<PollChange, 'event' | 'mail' | 'mailed'>): string {
  const change: PollChange = { kind, userId, version: 0, ...extra };
  const payload = JSON.stringify(change, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  return Buffer.byteLength(payload) > PAYLOAD_MAX ? JSON.stringify({ kind, userId, version: 0, mail: extra.mail, mailed: extra.mailed }) : payload;
}

/**
 * The in-memory map of versions: loaded once per customer and kind from the database, then kept current by the
 * NOTIFY that every bump sends (on PostgreSQL to every instance; on PGlite in-process). A poll whose
 * If-None-Match equals the current version is answered without touching the database.
 */
export class PollVersions {
  private readonly versions = new Map<string, number>();
  /** Loads in flight, with the highest version heard while loading (a NOTIFY may beat the SELECT). */
  private readonly loading = new Map<string, { promise: Promise<number>; heard: number }>();
  private readonly events = new EventEmitter();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly database: DatabaseHandle) {
    this.events.setMaxListeners(0);
  }

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(POLL_CHANNEL, (payload) => {
      let change: PollChange;
      try { change = JSON.parse(payload) as PollChange; } catch { return; }
      if (typeof change?.userId !== 'string' || typeof change.version !== 'number') return;
      this.heard(change.kind, change.userId, change.version);
      this.events.emit('change', change);
    }, () => {
      // Bumps in the gap were missed: every customer's version is read again on their next poll.
      this.versions.clear();
    });
  }

  async stop(): Promise<void> { await this.unlisten?.(); }

  /** The current version: a number when known (no await, no database), else a promise of the one loaded. */
  current(kind: PollKind, userId: string): number | Promise<number> {
    const key = `${kind}:${userId}`;
    const known = this.versions.get(key);
    if (known !== undefined) return known;
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight.promise;
    const entry = { heard: 0, promise: Promise.resolve(0) };
    entry.promise = committedPollVersion(this.database.db, kind, userId)
      .then((committed) => {
        const version = Math.max(committed, entry.heard, this.versions.get(key) ?? 0);
        this.versions.set(key, version);
        return version;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, entry);
    return entry.promise;
  }

  /** Every committed bump, on this instance and (on PostgreSQL) on the others. */
  onChange(handler: (change: PollChange) => void): () => void {
    this.events.on('change', handler);
    return () => this.events.off('change', handler);
  }

  private heard(kind: PollKind, userId: string, version: number): void {
    const key = `${kind}:${userId}`;
    const inFlight = this.loading.get(key);
    if (inFlight) inFlight.heard = Math.max(inFlight.heard, version);
    const known = this.versions.get(key);
    // Only customers already in memory are updated; the others load the committed value when they first poll.
    if (known !== undefined && version > known) this.versions.set(key, version);
  }
}

/** The ETag of a version: `"n12"` for notifications, `"c3"` for the pending crypto payment. */
export function pollEtag(kind: PollKind, version: number): string {
  return `"${kind === 'notifications' ? 'n' : 'c'}${version}"`;
}

/** True when an If-None-Match header names this ETag (a list, weak validators and `*` included). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true;
  return ifNoneMatch.split(',').some((part) => {
    const tag = part.trim().replace(/^W\//, '');
    return tag === etag || tag === '*';
  });
}

/**
 * For a polled GET route: sets `ETag` to the customer's current version and, when If-None-Match names it,
 * answers 304 and returns null (return `reply` from the handler). Otherwise returns the version to answer with.
 * No database access when the version is in memory.
 */
export async function conditionalPoll(
  request: FastifyRequest, reply: FastifyReply, versions: PollVersions, kind: PollKind, userId: string,
): Promise<number | null> {
  const known = versions.current(kind, userId);
  const version = typeof known === 'number' ? known : await known;
  const etag = pollEtag(kind, version);
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  if (etagMatches(request.headers['if-none-match'], etag)) {
    void reply.code(304).send();
    return null;
  }
  return version;
}
