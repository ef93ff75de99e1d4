import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { TestApp } from './helpers.js';

/** A channel no part of the app listens to: only the sentinel below travels on it. */
const SENTINEL_CHANNEL = 'cellport_test_sentinel';

/**
 * Resolves once this app has handled every NOTIFY committed before the call: the port list's announcements, the
 * poll versions' bumps, the bus. It sends a sentinel NOTIFY and waits for the app's own listener to hear it.
 *
 * Why that is enough: PostgreSQL delivers the notifications of different transactions in the order they committed,
 * on every channel, to one listening connection (the app LISTENs on all its channels over one, pg-listener.ts),
 * and the handlers run synchronously, one message after another. PGlite queues them as microtasks in the same order.
 * So when the sentinel arrives, whatever an earlier commit announced has been heard. This is the positive marker for
 * a test that proves something does *not* happen: if an announcement were coming, it would have come before this.
 *
 * Work that a handler only starts (an e-mail send) may still run afterwards; wait for that thing itself.
 */
export async function announced(t: Pick<TestApp, 'ctx'>, timeoutMs = 10_000): Promise<void> {
  const token = randomUUID();
  let heard!: () => void;
  const arrived = new Promise<void>((resolve) => { heard = resolve; });
  const unlisten = await t.ctx.database.listen(SENTINEL_CHANNEL, (payload) => { if (payload === token) heard(); });
  try {
    await sql`select pg_notify(${SENTINEL_CHANNEL}, ${token})`.execute(t.ctx.db);
    await within(arrived, timeoutMs, 'the sentinel NOTIFY never came back');
  } finally {
    await unlisten();
  }
}

/** `promise`, or a failure naming `what` when it has not settled after `ms` (a bound on a wait for an event). */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} (waited ${ms} ms)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
